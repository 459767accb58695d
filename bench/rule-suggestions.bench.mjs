// Benchmark: the rule-suggestion scan when a session ends.
//
// A session's summary lists the "make it a rule" suggestions an approval in that session fed
// (main/engine/policy/rule-suggestions.ts). Suggestions are counted over a person's newest
// 10,000 decisions; ending a session used to read all of them (every column, every row
// turned into a request) and draft a rule from each, inside the end's write, while every
// agent waited for that write. Now each decision stores its pattern as it is made (migration
// 026), and the end compares the window's patterns inside SQLite, on the index alone, reading
// whole rows only for the patterns of its own approvals. One database holds 12,000 decisions
// a person made (commands from a pool of 400, one in twenty denied, a few in other projects)
// spread over 60 sessions, and a session that ends with 20 approvals of its own.
//
// Printed: ending the session (the whole `end`, inside the write), and the session's
// suggestions alone (`suggestions.list` for the session), beside the baseline in the same run:
// the full scan of every decision's row in the window, then filtered to the session. The
// answers must be the same. Target: the end under 20 ms and the session's suggestions at
// least 3x faster than the full scan.
//
// Run: node bench/rule-suggestions.bench.mjs [decisions=12000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSources } from './lib/import-sources.mjs';
import { settleTargets, sized } from './lib/quick.mjs';

const DECISIONS = Number(process.argv[2] ?? sized(12_000, 12_000));
const ROUNDS = sized(15, 3);
const TARGET_END_MS = 20;
const TARGET_SPEEDUP = 3;

const {
  createCore,
  openDatabase,
  createSqliteEngineStores,
  computeSuggestions,
  SUGGESTION_SCAN_LIMIT,
  timeOrderedIds,
  idOrdinal,
  indexRequestTail,
  decisionPattern,
} = await importSources('rule-suggestions', [
  "export { createCore } from './main/core';",
  "export { openDatabase } from './main/store/database';",
  "export { createSqliteEngineStores } from './main/store/sqlite-engine-stores';",
  "export { computeSuggestions, SUGGESTION_SCAN_LIMIT } from './main/engine/policy/rule-suggestions';",
  "export { timeOrderedIds, idOrdinal } from './main/engine/kernel/ids';",
  "export { indexRequestTail } from './main/store/request-key-index';",
  "export { decisionPattern } from './main/engine/policy/decision-pattern';",
]);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const timeMs = (fn) => {
  let answer = fn();
  const ms = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    answer = fn();
    ms.push(performance.now() - t);
  }
  return { ms: median(ms), answer };
};

/** Writes the history straight into a migrated database; returns the ending session's id. */
function seed(db, now) {
  let at = now;
  const ids = timeOrderedIds(
    () => at,
    () => 0,
  );
  const idAt = (prefix, ms) => {
    at = ms;
    const id = ids(prefix);
    return { id, key: idOrdinal(id) };
  };
  const insertSession = db.prepare(`INSERT INTO sessions
    (session_id, agent, project, status, started_at, last_seen_at, requests_from, cost_usd)
    VALUES (?, ?, ?, 'active', ?, ?, 0, 0)`);
  const insertRequest = db.prepare(`INSERT INTO requests
    (request_key, request_id, session_id, agent, project, action, description, urgency,
     command, fingerprint, status, tier, rule, rule_reason, created_at, decided_at, decided_by,
     decided_via, scope, draft_pattern)
    VALUES (?, ?, ?, ?, ?, 'run_command', ?, 'normal', ?, ?, ?, 'ask', 'default:run_command',
     'seeded', ?, ?, 'human', 'dashboard', ?, ?)`);
  const start = now - DECISIONS * 60_000;
  const sessions = [];
  let ending;
  db.transaction(() => {
    for (let s = 0; s <= 60; s++) {
      const { id } = idAt('ses', start + s);
      const project = s % 10 === 9 ? '/work/other' : '/work/app';
      insertSession.run(id, `agent-${s % 4}`, project, start, start);
      sessions.push({ id, agent: `agent-${s % 4}`, project });
    }
    ending = sessions.pop();
    const file = (s, i, time, denied) => {
      const { id, key } = idAt('req', time);
      const command = `npm run task-${(i * 7919) % 400} -- --shard ${i % 3}`;
      insertRequest.run(
        key,
        id,
        s.id,
        s.agent,
        s.project,
        `run ${command}`,
        command,
        `fp-${i}`,
        denied ? 'denied' : 'approved',
        time,
        time + 500,
        denied ? null : 'once',
        // Stored as the person decides (migration 026).
        decisionPattern({ action: 'run_command', command, project: s.project }),
      );
    };
    for (let i = 0; i < DECISIONS; i++)
      file(sessions[i % sessions.length], i, start + i * 60_000, i % 20 === 0);
    for (let i = 0; i < 20; i++) file(ending, i * 13 + 1, now - 20_000 + i * 1000, false);
    // The requests' key entries, as the daemon writes them (main/store/request-key-index.ts).
    indexRequestTail(db);
  })();
  return ending.id;
}

let missed = false;
const home = mkdtempSync(join(tmpdir(), 'gh-bench-suggestions-'));
try {
  const db = openDatabase({ file: join(home, 'gatehouse.db') });
  const now = Date.now();
  const sessionId = seed(db, now);
  db.close();
  console.log(
    `seeded ${DECISIONS} decisions a person made over 60 sessions, and a session of 20 approvals that ends`,
  );

  const core = createCore({ home, socketPath: join(home, 'agent.sock') });
  // Baseline in the same run: what the end did before (every decision in the window read
  // and drafted, then the suggestions filtered to the session).
  const bdb = openDatabase({ file: join(home, 'gatehouse.db') });
  const stores = createSqliteEngineStores(bdb);
  const fullScan = timeMs(() =>
    computeSuggestions({
      decisions: stores.policy.listHumanDecidedRequests(SUGGESTION_SCAN_LIMIT),
      rules: [],
      snoozed: new Set(),
      threshold: 3,
    }).filter((s) => s.sessionIds.includes(sessionId)),
  );
  const own = timeMs(() => core.admin.invoke('suggestions.list', { sessionId }));
  const ownAnswer = await own.answer;
  const same =
    JSON.stringify(ownAnswer.suggestions.map((s) => [s.key, s.approvals, s.sessionIds])) ===
    JSON.stringify(fullScan.answer.map((s) => [s.key, s.approvals, s.sessionIds]));
  const speedup = fullScan.ms / own.ms;
  console.log(
    `the session's suggestions (${ownAnswer.suggestions.length}): ${own.ms.toFixed(2)} ms; baseline, the full scan of ${SUGGESTION_SCAN_LIMIT} decisions: ${fullScan.ms.toFixed(2)} ms; ${speedup.toFixed(1)}x faster (target >= ${TARGET_SPEEDUP}x); same answers: ${same}`,
  );
  if (!same) {
    console.error('the session suggestions differ from the full scan');
    process.exitCode = 1;
  }
  if (speedup < TARGET_SPEEDUP) missed = true;
  bdb.close();

  const t = performance.now();
  const { summary } = core.engine.end({ sessionId, agent: 'agent-0' }, { status: 'completed' });
  const endMs = performance.now() - t;
  console.log(
    `ending the session: ${endMs.toFixed(1)} ms in the write, ${summary.suggestions?.length ?? 0} suggestions in its summary (target < ${TARGET_END_MS} ms)`,
  );
  if (endMs > TARGET_END_MS) missed = true;
  await core.engine.durable();
  await core.close();
} finally {
  rmSync(home, { recursive: true, force: true });
}
settleTargets(missed);
