// Loaded into a daemon under a benchmark (`node --import this-file …`): measures the longest
// event-loop stall of the daemon's own thread (perf_hooks.monitorEventLoopDelay, 1 ms
// resolution). On SIGUSR2 it writes the longest stall since the previous report to
// $BENCH_STALL_FILE as {"seq","maxMs"} and starts over; processes.mjs reads it.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BENCH_STALL_FILE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let seq = 0;
  process.on('SIGUSR2', () => {
    writeFileSync(file, JSON.stringify({ seq: ++seq, maxMs: delay.max / 1e6 }));
    delay.reset();
  });
}
