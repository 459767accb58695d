// Every benchmark file: bench/*.bench.mjs and one folder down (bench/guards/…), sorted.
// Used by bench/run.mjs and by the test that runs them all in quick mode.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Paths relative to bench/, e.g. `socket.bench.mjs`, `guards/check-cost.bench.mjs`. */
export function benchFiles() {
  return readdirSync(BENCH_DIR, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split('\\').join('/'))
    .filter((f) => f.endsWith('.bench.mjs') && f.split('/').length <= 2)
    .sort();
}
