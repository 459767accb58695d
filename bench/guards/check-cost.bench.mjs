// In-process cost of the guard chain over a real SQLite file, each call in its own
// transaction as the engine runs it: `check` with every guard engaged, `outcome` and `usage`.
// Complements the socket benchmark (check vs classify), which measures the same over the wire.
// Run: node bench/guards/check-cost.bench.mjs [calls]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSources } from '../lib/import-sources.mjs';
import { sized } from '../lib/quick.mjs';

const CALLS = Number(process.argv[2] ?? sized(20_000, 500));
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-check-bench-'));
try {
  const m = await importSources('check-cost', [
    "export { GuardChain } from './main/engine/guards/engine-guard-chain';",
    "export { GuardStateRepository } from './main/store/guard-state-repository';",
    "export { migrations } from './main/store/migrations/index';",
    "export { Settings } from './shared/settings/index';",
    "export { systemClock } from './shared/node/system-clock';",
  ]);
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(join(dir, 'bench.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  for (const mig of m.migrations) db.transaction(() => mig.up(db))();
  const settings = m.Settings.parse({ budgets: { perDayUsd: 1e9, perSessionUsd: 1e9 } });
  const chain = new m.GuardChain({
    clock: m.systemClock,
    store: new m.GuardStateRepository(db),
    settings: () => settings,
  });
  const sessions = Array.from({ length: 64 }, (_, i) => ({
    sessionId: `s${i}`,
    agent: `agent-${i % 8}`,
  }));
  const checkParams = {
    phase: 'implementation',
    iteration: 1,
    progress: true,
    estimatedCostUsd: 0.001,
    provider: 'openai',
    tool: 'search',
  };

  const time = (label, fn) => {
    const t = process.hrtime.bigint();
    const tx = db.transaction((c, i) => fn(c, i));
    for (let i = 0; i < CALLS; i++) tx(sessions[i % sessions.length], i);
    const us = Number(process.hrtime.bigint() - t) / 1e3 / CALLS;
    console.log(
      `  ${label.padEnd(34)} ${us.toFixed(1).padStart(6)} µs/call  ${(1e6 / us / 1000).toFixed(1).padStart(6)}k calls/s`,
    );
  };
  console.log(`guard chain over SQLite (WAL), ${CALLS} calls each, one transaction per call`);
  time('empty transaction (baseline)', () => {});
  time('check, every guard engaged', (c) => chain.check(c, checkParams));
  time('outcome ok with output', (c, i) =>
    chain.outcome(c, {
      ok: true,
      source: 'llm',
      provider: 'openai',
      tool: 'search',
      output: `result ${i % 7}`,
    }),
  );
  time('usage (priced by the table)', (c) =>
    chain.usage(c, {
      model: 'gpt-4o-mini',
      inputTokens: 1000,
      outputTokens: 200,
      phase: 'implementation',
    }),
  );
  chain.dispose();
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
