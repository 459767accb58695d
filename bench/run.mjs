// Runs every benchmark (bench/*.bench.mjs and bench/guards/*.bench.mjs) in turn and exits
// non-zero if any missed its target or failed to run. `node bench/run.mjs socket flood` runs
// the ones whose name contains one of the words. With BENCH_QUICK=1 each runs in quick mode
// (bench/lib/quick.mjs): a fraction of a second per measurement, targets not enforced.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BENCH_DIR, benchFiles } from './lib/bench-files.mjs';

const only = process.argv.slice(2);
const benches = benchFiles().filter((f) => !only.length || only.some((o) => f.includes(o)));
const failed = [];
for (const file of benches) {
  console.log(`\n##### ${file}`);
  const r = spawnSync(process.execPath, [join(BENCH_DIR, file)], { stdio: 'inherit' });
  if (r.status !== 0) failed.push(file);
}
console.log(`\n${benches.length - failed.length} passed, ${failed.length} failed`);
if (failed.length) {
  console.log(`missed targets: ${failed.join(', ')}`);
  process.exitCode = 1;
}
