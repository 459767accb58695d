// Flood benchmark: N connections pipeline `classify` without ever reading a reply,
// while a well-behaved agent is measured beside them. Targets: the daemon's RSS grows by less
// than 150 MB, and the well-behaved agent's p99 stays within 5x its p99 without the flood,
// measured in the same run against the same daemon.
//
// Rounds alternate a window without the flood and a window with a new flood that starts with
// it (no warm-up: the flood's whole life, while the daemon still reads it, is measured). On a
// shared machine a burst of noise then lands in one round, not in the whole of one side; the
// ratio is the median of the rounds' ratios. Each round also shows when the daemon stopped
// reading the flood (the flood client's count of lines written stopped growing) and the
// daemon's CPU time in each window: a flood held back early costs next to nothing afterwards.
//
// Then fairness: 40 identical connections keep 25 `classify` calls in flight each;
// the calls answered per connection must be within 1.5x of each other (most / fewest). And
// the daemon's longest event-loop stall over the whole run (target < 20 ms).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { measure, measurePerConnection, openConnections } from './lib/socket-load.mjs';
import { cpuTimeMs, ROOT, startDaemon, startEcho } from './lib/processes.mjs';
import { settleTargets, sized } from './lib/quick.mjs';

const N = Number(process.env.BENCH_FLOOD_CONNECTIONS ?? 12);
const MS = Number(process.env.BENCH_MS ?? sized(2000, 200));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(3, 1));
const MAX_GROWTH_MB = 150;
const FAIR_CONNECTIONS = 40;
const FAIR_DEPTH = 25;
const MAX_FAIRNESS_RATIO = 1.5;
const MAX_STALL_MS = 20;
const MAX_P99_RATIO = 5;

const rssMb = (pid) => {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb ? Number(kb[1]) / 1024 : NaN;
};
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Starts the flood client; resolves once all its connections are in and writing. */
async function startFlood(socketPath) {
  const flood = spawn(
    process.execPath,
    [join(ROOT, 'bench/lib/flood-client.mjs'), socketPath, String(N)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  let start = 0;
  let lastGrowth = 0;
  await new Promise((resolve, reject) => {
    flood.stdout.on('data', (d) => {
      out += d;
      if (String(d).includes('written')) lastGrowth = performance.now();
      if (!start && out.includes('flooding')) {
        start = performance.now();
        resolve();
      }
    });
    flood.once('exit', (code) => reject(new Error(`flood client exited ${code}`)));
  });
  return {
    /** Milliseconds from the start to the last report of more lines written (50 ms steps). */
    heldBackAfter: () => Math.max(0, lastGrowth - start),
    linesWritten: () => [...out.matchAll(/written (\d+)/g)].at(-1)?.[1] ?? '?',
    stop() {
      flood.removeAllListeners('exit');
      flood.kill('SIGKILL');
      return new Promise((r) => flood.once('exit', r));
    },
  };
}

const daemon = await startDaemon();
// Idle beside the daemon: its stalls are the machine's share (other processes' load).
const echo = await startEcho();
let flood;
try {
  const [agent] = await openConnections(daemon.socketPath, 1);
  await agent.call('hello', { agent: 'well-behaved' });
  const call = () => agent.call('classify', { action: 'git_status' });
  await measure([agent], call, { ms: sized(500, 50) }); // warms the daemon before anything is recorded
  const rssBefore = rssMb(daemon.pid);
  await daemon.longestStallMs(); // from here on
  await echo.longestStallMs();
  let peak = rssBefore;

  console.log(
    `flood: ${N} connections pipelining classify without reading; ${ROUNDS} rounds of ${MS} ms alone, then ${MS} ms from the start of a new flood`,
  );
  const ratios = [];
  for (let round = 1; round <= ROUNDS; round++) {
    let cpu = cpuTimeMs(daemon.pid);
    const alone = await measure([agent], call, { ms: MS, warmupMs: sized(300, 50) });
    const aloneCpuMs = cpuTimeMs(daemon.pid) - cpu;

    flood = await startFlood(daemon.socketPath);
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(daemon.pid))), 50);
    cpu = cpuTimeMs(daemon.pid);
    const flooded = await measure([agent], call, { ms: MS, warmupMs: 0 });
    const floodedCpuMs = cpuTimeMs(daemon.pid) - cpu;
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(daemon.pid));
    const lines = flood.linesWritten();
    const heldAt = flood.heldBackAfter();
    await flood.stop();
    flood = undefined;

    const ratio = flooded.p99 / alone.p99;
    ratios.push(ratio);
    console.log(`round ${round}`);
    console.log(
      `  alone:      ${alone.rps.toFixed(0)} calls/s, p50 ${alone.p50.toFixed(3)} ms, p99 ${alone.p99.toFixed(3)} ms, daemon CPU ${aloneCpuMs} ms`,
    );
    console.log(
      `  with flood: ${flooded.rps.toFixed(0)} calls/s, p50 ${flooded.p50.toFixed(3)} ms, p99 ${flooded.p99.toFixed(3)} ms, daemon CPU ${floodedCpuMs} ms; p99 ratio ${ratio.toFixed(2)}x`,
    );
    console.log(
      `  flood held back ${heldAt.toFixed(0)} ms after it started (${lines} lines written, then no more)`,
    );
  }
  // On a fast machine the lone agent can pass the per-connection rate limit: it then waits as
  // told and sends again (socket-load.mjs), and this says how often.
  console.log(
    `well-behaved agent: ${agent.rateLimited} calls rate limited, waited out and sent again`,
  );
  agent.close();

  const ratio = median(ratios);
  const growth = peak - rssBefore;
  console.log(
    `p99 with flood / alone: ${ratio.toFixed(2)}x, median of ${ROUNDS} rounds (target < ${MAX_P99_RATIO}x)`,
  );
  console.log(
    `daemon RSS: ${rssBefore.toFixed(1)} MB before, ${peak.toFixed(1)} MB at peak, +${growth.toFixed(1)} MB (target < ${MAX_GROWTH_MB} MB)`,
  );
  const floodStall = await daemon.longestStallMs();
  console.log(`daemon's longest event-loop stall with the floods: ${floodStall.toFixed(1)} ms`);

  // Fairness: identical connections, many calls in flight each.
  const fair = await openConnections(daemon.socketPath, FAIR_CONNECTIONS);
  await Promise.all(fair.map((c, i) => c.call('hello', { agent: `fair-${i}` })));
  await daemon.longestStallMs();
  const counts = await measurePerConnection(
    fair,
    (c) => c.call('classify', { action: 'git_status' }),
    {
      depth: FAIR_DEPTH,
      ms: MS,
      warmupMs: sized(300, 50),
    },
  );
  const fairStall = await daemon.longestStallMs();
  fair.forEach((c) => c.close());
  const fewest = Math.min(...counts);
  const most = Math.max(...counts);
  const fairness = most / Math.max(1, fewest);
  console.log(
    `fairness: ${FAIR_CONNECTIONS} connections x ${FAIR_DEPTH} calls in flight for ${MS} ms: ${counts.reduce((a, b) => a + b, 0)} calls, ${fewest} to ${most} per connection, ${fairness.toFixed(2)}x (target <= ${MAX_FAIRNESS_RATIO}x); longest stall ${fairStall.toFixed(1)} ms`,
  );
  const stall = Math.max(floodStall, fairStall);
  const machineStall = await echo.longestStallMs();
  console.log(
    `daemon's longest event-loop stall: ${stall.toFixed(1)} ms (target < ${MAX_STALL_MS} ms); an idle echo server's meanwhile: ${machineStall.toFixed(1)} ms (the machine's share)`,
  );
  const missed =
    growth >= MAX_GROWTH_MB ||
    ratio > MAX_P99_RATIO ||
    fairness > MAX_FAIRNESS_RATIO ||
    stall >= MAX_STALL_MS;
  if (missed) console.log('MISSED TARGET');
  settleTargets(missed);
} finally {
  await flood?.stop();
  await daemon.stop();
  await echo.stop();
}
