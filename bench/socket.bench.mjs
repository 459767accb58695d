// Socket benchmark (issues 2 and 3): classify, auto-approved request and check (all guards
// on) against a bare NDJSON echo server over the same kind of socket, in the same run.
// Every Gatehouse call is audited durably (committed to SQLite in WAL mode) before its
// answer is written. Each Gatehouse row also shows the daemon's CPU time per call: with every
// connection keeping a call in flight, that time sets both throughput and the latency tail.
// A calibration row (an echo server that spins a fixed time per call) shows the tail such a
// cost alone brings on this machine, in this run.
import { measure, openConnections } from './lib/socket-load.mjs';
import { cpuTimeMs, startDaemon, startEcho } from './lib/processes.mjs';

const MS = Number(process.env.BENCH_MS ?? 2000);
const CALIBRATION_US = 35;
const fmt = (r) =>
  `${Math.round(r.rps).toString().padStart(7)} req/s  p50 ${r.p50.toFixed(3)} ms  p99 ${r.p99.toFixed(3)} ms`;

const CALLS = {
  classify: ['classify', { action: 'read_file', paths: ['src/a.ts'] }],
  request: ['request', { action: 'read_file', description: 'read a file', paths: ['src/a.ts'] }],
  // Guards engaged: a phase and iteration (iteration and time breakers), a provider and a
  // tool (provider health, tool breaker), an estimate (budget reservation).
  check: [
    'check',
    { phase: 'implementation', provider: 'bench', tool: 'edit', estimatedCostUsd: 0 },
  ],
};

async function gatehouseConns(socketPath, n) {
  const conns = await openConnections(socketPath, n);
  await Promise.all(conns.map((c, i) => c.call('hello', { agent: `bench-${i % 8}` })));
  return conns;
}

const daemon = await startDaemon();
const echo = await startEcho();
const busyEcho = await startEcho(CALIBRATION_US);
const results = {};
try {
  for (const n of [8, 64]) {
    const e = await openConnections(echo.socketPath, n);
    const row = { echo: await measure(e, (c) => c.call(...CALLS.classify), { ms: MS }) };
    e.forEach((c) => c.close());
    console.log(`\n${n} connections`);
    console.log(`  echo baseline      ${fmt(row.echo)}`);
    if (n === 8) {
      const b = await openConnections(busyEcho.socketPath, n);
      const busy = await measure(b, (c) => c.call(...CALLS.classify), { ms: MS });
      b.forEach((c) => c.close());
      console.log(`  echo + ${CALIBRATION_US} us/call ${fmt(busy)}   (calibration)`);
    }
    for (const name of Object.keys(CALLS)) {
      // Fresh sessions per scenario, so one scenario's guard state does not shape the next.
      const g = await gatehouseConns(daemon.socketPath, n);
      const cpuBefore = cpuTimeMs(daemon.pid);
      row[name] = await measure(g, (c) => c.call(...CALLS[name]), { ms: MS });
      const cpu = cpuTimeMs(daemon.pid) - cpuBefore;
      g.forEach((c) => c.close());
      // Warm-up calls are not counted; their CPU is, so this slightly overstates the cost.
      const perCall = Number.isFinite(cpu)
        ? ` ${((cpu * 1000) / row[name].count).toFixed(0)} us CPU/call`
        : '';
      console.log(
        `  ${name.padEnd(17)}  ${fmt(row[name])}   ratio to echo ${(row[name].rps / row.echo.rps).toFixed(2)}${perCall}`,
      );
    }
    results[n] = row;
  }
} finally {
  await daemon.stop();
  await echo.stop();
  await busyEcho.stop();
}

const checks = [
  ['64 conns: classify >= 0.50 x echo', results[64].classify.rps / results[64].echo.rps, 0.5, '>='],
  ['64 conns: request >= 0.25 x echo', results[64].request.rps / results[64].echo.rps, 0.25, '>='],
  [
    '64 conns: check (all guards) >= 0.70 x classify',
    results[64].check.rps / results[64].classify.rps,
    0.7,
    '>=',
  ],
  ['8 conns: classify p99 < 1 ms', results[8].classify.p99, 1, '<'],
  ['8 conns: request p99 < 1 ms', results[8].request.p99, 1, '<'],
];
let failed = false;
console.log('\ntargets');
for (const [name, value, target, op] of checks) {
  const ok = op === '>=' ? value >= target : value < target;
  if (!ok) failed = true;
  console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${name}: ${value.toFixed(3)}`);
}
process.exitCode = failed ? 1 : 0;
