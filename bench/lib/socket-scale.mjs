// The scale figure of the socket benchmark: the same closed loop of `classify`
// (every connection keeps one call in flight) at growing numbers of connections, printing
// throughput, p99, the daemon's CPU per call, its RSS and its longest event-loop stall.
//
// What linear means here: the daemon answers on one thread, so once that thread is busy the
// throughput stays flat and, by Little's law, latency grows in proportion to the connections
// (p99 / connections stays flat). Growth stops being linear where the CPU per call rises
// (more work per call for the same answer: per-connection costs, a bigger heap) or where
// p99 per connection rises (calls wait longer than the queue explains: stalls, unfairness).
import { readFileSync } from 'node:fs';
import { cpuTimeMs } from './processes.mjs';
import { measure, openConnections } from './socket-load.mjs';

const LINEAR_SLACK = 1.3;

function rssMb(pid) {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb ? Number(kb[1]) / 1024 : NaN;
}

/** Measures each count in turn on `daemon`; prints the table; returns its checks. */
export async function scaleFigure({ daemon, counts, ms, warmupMs, stallTargetMs = 20 }) {
  const rows = [];
  for (const n of counts) {
    const conns = await openConnections(daemon.socketPath, n);
    await Promise.all(conns.map((c, i) => c.call('hello', { agent: `scale-${i % 8}` })));
    await daemon.longestStallMs();
    const cpuBefore = cpuTimeMs(daemon.pid);
    const r = await measure(conns, (c) => c.call('classify', { action: 'read_file' }), {
      ms,
      warmupMs,
    });
    const cpuMs = cpuTimeMs(daemon.pid) - cpuBefore;
    const rss = rssMb(daemon.pid);
    const stall = await daemon.longestStallMs();
    conns.forEach((c) => c.close());
    // Warm-up calls are not counted but their CPU is: count them at the measured rate.
    const calls = r.count * ((ms + warmupMs) / ms);
    rows.push({ n, ...r, cpuUs: (cpuMs * 1000) / calls, rss, stall });
  }
  const first = rows[0];
  console.log(
    `\nscale: classify, closed loop, ${ms} ms per count (the bench's own client shares the machine)`,
  );
  console.log('  conns      req/s   p99 ms  p99/conn  CPU/call  vs first  RSS MB  stall ms');
  let bend;
  for (const row of rows) {
    const cpuRatio = row.cpuUs / first.cpuUs;
    const perConn = row.p99 / row.n / (first.p99 / first.n);
    if (!bend && (cpuRatio > LINEAR_SLACK || (row !== first && perConn > LINEAR_SLACK)))
      bend = { row, cpuRatio, perConn };
    console.log(
      `  ${String(row.n).padStart(5)}  ${Math.round(row.rps).toString().padStart(9)}  ${row.p99.toFixed(2).padStart(7)}  ${(row.p99 / row.n).toFixed(3).padStart(8)}  ${row.cpuUs.toFixed(0).padStart(6)} us  ${cpuRatio.toFixed(2).padStart(7)}x  ${row.rss.toFixed(0).padStart(6)}  ${row.stall.toFixed(1).padStart(8)}`,
    );
  }
  if (bend)
    console.log(
      `  growth stops being linear at ${bend.row.n} connections: CPU per call ${bend.cpuRatio.toFixed(2)}x the first, p99 per connection ${bend.perConn.toFixed(2)}x (linear: both within ${LINEAR_SLACK}x)`,
    );
  else
    console.log(
      `  linear up to ${rows.at(-1).n} connections: CPU per call and p99 per connection within ${LINEAR_SLACK}x of the first`,
    );
  return {
    rows,
    checks: rows.map((row) => [
      `scale ${row.n} conns: longest event-loop stall < ${stallTargetMs} ms`,
      row.stall,
      stallTargetMs,
      '<',
    ]),
  };
}
