// Socket benchmark (issue 2): classify and auto-approved request against a bare NDJSON echo
// server over the same kind of socket, in the same run. Every Gatehouse call is audited
// durably (committed to SQLite in WAL mode) before its answer is written.
import { measure, openConnections } from './lib/socket-load.mjs';
import { startDaemon, startEcho } from './lib/processes.mjs';

const MS = Number(process.env.BENCH_MS ?? 2000);
const fmt = (r) => `${Math.round(r.rps).toString().padStart(7)} req/s  p50 ${r.p50.toFixed(3)} ms  p99 ${r.p99.toFixed(3)} ms`;

async function gatehouseConns(socketPath, n) {
  const conns = await openConnections(socketPath, n);
  await Promise.all(conns.map((c, i) => c.call('hello', { agent: `bench-${i % 8}` })));
  return conns;
}

const daemon = await startDaemon();
const echo = await startEcho();
const results = {};
let failed = false;
try {
  for (const n of [8, 64]) {
    const e = await openConnections(echo.socketPath, n);
    const echoR = await measure(e, (c) => c.call('classify', { action: 'read_file', paths: ['src/a.ts'] }), { ms: MS });
    e.forEach((c) => c.close());
    const g = await gatehouseConns(daemon.socketPath, n);
    const classifyR = await measure(g, (c) => c.call('classify', { action: 'read_file', paths: ['src/a.ts'] }), { ms: MS });
    const requestR = await measure(g, (c) => c.call('request', { action: 'read_file', description: 'read a file', paths: ['src/a.ts'] }), { ms: MS });
    g.forEach((c) => c.close());
    results[n] = { echo: echoR, classify: classifyR, request: requestR };
    console.log(`\n${n} connections`);
    console.log(`  echo baseline      ${fmt(echoR)}`);
    console.log(`  classify           ${fmt(classifyR)}   ratio ${(classifyR.rps / echoR.rps).toFixed(2)}`);
    console.log(`  request (auto)     ${fmt(requestR)}   ratio ${(requestR.rps / echoR.rps).toFixed(2)}`);
  }
} finally {
  await daemon.stop();
  await echo.stop();
}

const checks = [
  ['64 conns: classify >= 0.50 x echo', results[64].classify.rps / results[64].echo.rps, 0.5, '>='],
  ['64 conns: request >= 0.25 x echo', results[64].request.rps / results[64].echo.rps, 0.25, '>='],
  ['8 conns: classify p99 < 1 ms', results[8].classify.p99, 1, '<'],
  ['8 conns: request p99 < 1 ms', results[8].request.p99, 1, '<'],
];
console.log('\ntargets');
for (const [name, value, target, op] of checks) {
  const ok = op === '>=' ? value >= target : value < target;
  if (!ok) failed = true;
  console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${name}: ${value.toFixed(3)}`);
}
process.exitCode = failed ? 1 : 0;
