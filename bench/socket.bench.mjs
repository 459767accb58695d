// Socket benchmark: classify, auto-approved request and check (all guards
// on) against a bare NDJSON echo server over the same kind of socket, in the same run.
// Every Gatehouse call is audited durably (committed to SQLite in WAL mode) before its
// answer is written. Each Gatehouse row also shows the daemon's CPU time per call: with every
// connection keeping a call in flight, that time sets both throughput and the latency tail.
// Two calibration rows (echo servers that spin a fixed time per call: about what a `request`
// costs the daemon, and about what a `classify` costs) show the tail such a cost alone brings
// on this machine, in this run: in a closed loop at 8 connections, the p99 follows the CPU a
// call costs the server, whatever the server does with it. A third (an echo that commits one
// SQLite row per call before answering, as the daemon does) shows the tail of the durable
// write alone, the floor the issue names for an audited `request`.
import { measure, openConnections } from './lib/socket-load.mjs';
import { cpuTimeMs, startDaemon, startEcho } from './lib/processes.mjs';
import { QUICK, settleTargets, sized } from './lib/quick.mjs';
import { scaleFigure } from './lib/socket-scale.mjs';

// Each figure is the median of ROUNDS short rounds, and the rounds interleave every row (echo,
// calibration, Gatehouse): on a shared machine a burst of noise then lands in one round of
// every row rather than in the whole of one row. Ratios pair rows measured in the same round.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(5, 1));
const MS = Number(process.env.BENCH_MS ?? sized(1000, 150));
const WARMUP_MS = sized(300, 50);
const TARGET_STALL_MS = 20;
const CALIBRATION_US = [35, 12];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const range = (values) => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;

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

/** One round of one row: fresh connections, a closed loop, the server's CPU time. */
async function measureRow({ open, call, pid }) {
  const conns = await open();
  const cpuBefore = pid === undefined ? NaN : cpuTimeMs(pid);
  const r = await measure(conns, (c) => c.call(...call), { ms: MS, warmupMs: WARMUP_MS });
  // Warm-up calls are not counted; their CPU is, so this slightly overstates the cost.
  const cpuMs = pid === undefined ? NaN : cpuTimeMs(pid) - cpuBefore;
  conns.forEach((c) => c.close());
  return { ...r, cpuMs };
}

const daemon = await startDaemon();
const echo = await startEcho();
const busyEchoes = await Promise.all(CALIBRATION_US.map((us) => startEcho(us)));
// The floor of "one durable write per decision": an echo that commits a row per call.
const durableEcho = await startEcho(0, { durable: true });
const results = {};
let longestStall = 0;
let scale;
try {
  for (const n of [8, 64]) {
    const rows = {
      echo: { open: () => openConnections(echo.socketPath, n), call: CALLS.classify },
      ...(n === 8
        ? Object.fromEntries(
            CALIBRATION_US.map((us, i) => [
              `calibration ${us}`,
              { open: () => openConnections(busyEchoes[i].socketPath, n), call: CALLS.classify },
            ]),
          )
        : {}),
      ...(n === 8
        ? {
            'durable echo': {
              open: () => openConnections(durableEcho.socketPath, n),
              call: CALLS.request,
              pid: durableEcho.pid,
            },
          }
        : {}),
      // Fresh sessions per round, so one scenario's guard state does not shape the next.
      ...Object.fromEntries(
        Object.entries(CALLS).map(([name, call]) => [
          name,
          { open: () => gatehouseConns(daemon.socketPath, n), call, pid: daemon.pid },
        ]),
      ),
    };
    const rounds = Object.fromEntries(Object.keys(rows).map((name) => [name, []]));
    await daemon.longestStallMs(); // from here on
    await echo.longestStallMs();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, row] of Object.entries(rows)) rounds[name].push(await measureRow(row));
    }
    const stall = await daemon.longestStallMs();
    const echoStall = await echo.longestStallMs();
    longestStall = Math.max(longestStall, stall);
    console.log(`\n${n} connections (median of ${ROUNDS} rounds of ${MS} ms; p99 range)`);
    const summary = {};
    for (const [name, rs] of Object.entries(rounds)) {
      const p99s = rs.map((r) => r.p99);
      const s = {
        rps: median(rs.map((r) => r.rps)),
        p50: median(rs.map((r) => r.p50)),
        p99: median(p99s),
        // Each round's throughput against the echo baseline's in the same round.
        ratio: median(rs.map((r, i) => r.rps / rounds.echo[i].rps)),
        cpuUs:
          (rs.reduce((sum, r) => sum + r.cpuMs, 0) * 1000) /
          rs.reduce((sum, r) => sum + r.count, 0),
      };
      summary[name] = s;
      // The durable echo is a calibration too: what the tail is with a durable write alone.
      const calibration = name.startsWith('calibration ') || name === 'durable echo';
      const label =
        name === 'echo'
          ? 'echo baseline'
          : name === 'durable echo'
            ? 'echo + SQLite row'
            : calibration
              ? `echo + ${name.slice('calibration '.length)} us/call`
              : name;
      const cpu = rs.reduce((sum, r) => sum + r.cpuMs, 0);
      const calls = rs.reduce((sum, r) => sum + r.count, 0);
      const tail =
        name === 'echo'
          ? ''
          : calibration
            ? `   (calibration: p99 ${(s.p99 / summary.echo.p99).toFixed(2)}x echo's${name === 'durable echo' ? `, ${((cpu * 1000) / calls).toFixed(0)} us CPU/call` : ''})`
            : `   ratio to echo ${s.ratio.toFixed(2)}  ${((cpu * 1000) / calls).toFixed(0)} us CPU/call`;
      console.log(
        `  ${label.padEnd(17)}  ${Math.round(s.rps).toString().padStart(7)} req/s  p50 ${s.p50.toFixed(3)} ms  p99 ${s.p99.toFixed(3)} ms (${range(p99s)})${tail}`,
      );
    }
    if (summary['durable echo'])
      console.log(
        `  request p99 against the durable echo's (information, no target): ${(summary.request.p99 / summary['durable echo'].p99).toFixed(2)}x`,
      );
    // check against classify, round by round, like the ratios to echo.
    summary.check.toClassify = median(rounds.check.map((r, i) => r.rps / rounds.classify[i].rps));
    results[n] = summary;
    console.log(
      `  longest event-loop stall: daemon ${stall.toFixed(1)} ms, echo server ${echoStall.toFixed(1)} ms (the machine's share)`,
    );
  }
  scale = await scaleFigure({
    daemon,
    counts: QUICK ? [8, 64] : [8, 64, 256, 1024],
    ms: sized(2000, 150),
    warmupMs: WARMUP_MS,
  });
} finally {
  await daemon.stop();
  await echo.stop();
  for (const e of busyEchoes) await e.stop();
  await durableEcho.stop();
}

// The socket's targets, each against the echo server measured in the same rounds.
const checks = [
  ['64 conns: classify >= 0.6 x echo', results[64].classify.ratio, 0.6, '>='],
  ['64 conns: classify daemon CPU <= 45 us/call', results[64].classify.cpuUs, 45, '<='],
  ['64 conns: request >= 0.4 x echo', results[64].request.ratio, 0.4, '>='],
  ['64 conns: request daemon CPU <= 80 us/call', results[64].request.cpuUs, 80, '<='],
  ['64 conns: check (all guards) >= 0.70 x classify', results[64].check.toClassify, 0.7, '>='],
  [
    '8 conns: classify p99 <= 1.5 x echo p99',
    results[8].classify.p99 / results[8].echo.p99,
    1.5,
    '<=',
  ],
  [
    '8 conns: request p99 <= 1.5 x echo p99',
    results[8].request.p99 / results[8].echo.p99,
    1.5,
    '<=',
  ],
  [`daemon's longest event-loop stall < ${TARGET_STALL_MS} ms`, longestStall, TARGET_STALL_MS, '<'],
  ...scale.checks,
];
let failed = false;
console.log('\ntargets');
for (const [name, value, target, op] of checks) {
  const ok = op === '>=' ? value >= target : op === '<=' ? value <= target : value < target;
  if (!ok) failed = true;
  console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${name}: ${value.toFixed(3)}`);
}
settleTargets(failed);
