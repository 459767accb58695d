// Flood benchmark (issue 9): N connections pipeline `classify` without ever reading a reply,
// while a well-behaved agent is measured beside them. Targets: the daemon's RSS grows by less
// than 150 MB, and the well-behaved agent's p99 stays within 5x its p99 without the flood,
// measured in the same run against the same daemon.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { measure, openConnections } from './lib/socket-load.mjs';
import { ROOT, startDaemon } from './lib/processes.mjs';

const N = Number(process.env.BENCH_FLOOD_CONNECTIONS ?? 12);
const MS = Number(process.env.BENCH_MS ?? 3000);
const MAX_GROWTH_MB = 150;
const MAX_P99_RATIO = 5;

const rssMb = (pid) => {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb ? Number(kb[1]) / 1024 : NaN;
};

const daemon = await startDaemon();
let flood;
try {
  const [agent] = await openConnections(daemon.socketPath, 1);
  await agent.call('hello', { agent: 'well-behaved' });
  const call = () => agent.call('classify', { action: 'git_status' });
  const baseline = await measure([agent], call, { ms: MS });
  const rssBefore = rssMb(daemon.pid);

  flood = spawn(
    process.execPath,
    [join(ROOT, 'bench/lib/flood-client.mjs'), daemon.socketPath, String(N)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let floodOut = '';
  await new Promise((resolve, reject) => {
    flood.stdout.on('data', (d) => {
      floodOut += d;
      if (floodOut.includes('flooding')) resolve();
    });
    flood.once('exit', (code) => reject(new Error(`flood client exited ${code}`)));
  });
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(daemon.pid))), 50);
  const flooded = await measure([agent], call, { ms: MS });
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(daemon.pid));
  const lines = /written (\d+)\n?$/.exec(floodOut.trim())?.[1] ?? '?';

  const growth = peak - rssBefore;
  const ratio = flooded.p99 / baseline.p99;
  console.log(
    `flood: ${N} connections pipelining classify without reading (${lines} lines written)`,
  );
  console.log(
    `well-behaved agent alone:      ${baseline.rps.toFixed(0)} calls/s, p50 ${baseline.p50.toFixed(3)} ms, p99 ${baseline.p99.toFixed(3)} ms`,
  );
  console.log(
    `well-behaved agent with flood: ${flooded.rps.toFixed(0)} calls/s, p50 ${flooded.p50.toFixed(3)} ms, p99 ${flooded.p99.toFixed(3)} ms`,
  );
  console.log(`p99 with flood / alone: ${ratio.toFixed(2)}x (target < ${MAX_P99_RATIO}x)`);
  console.log(
    `daemon RSS: ${rssBefore.toFixed(1)} MB before, ${peak.toFixed(1)} MB at peak, +${growth.toFixed(1)} MB (target < ${MAX_GROWTH_MB} MB)`,
  );
  if (growth >= MAX_GROWTH_MB || ratio > MAX_P99_RATIO) {
    console.log('MISSED TARGET');
    process.exitCode = 1;
  }
  agent.close();
} finally {
  flood?.removeAllListeners('exit');
  flood?.kill('SIGKILL');
  await daemon.stop();
}
