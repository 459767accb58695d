// Runs every bench/*.bench.mjs in turn and exits non-zero if any missed its target.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => !only.length || only.some((o) => f.includes(o)))
  .sort();
const failed = [];
for (const file of benches) {
  console.log(`\n##### ${file}`);
  const r = spawnSync(process.execPath, [join(dir, file)], { stdio: 'inherit' });
  if (r.status !== 0) failed.push(file);
}
console.log(`\n${benches.length - failed.length} passed, ${failed.length} failed`);
if (failed.length) {
  console.log(`missed targets: ${failed.join(', ')}`);
  process.exitCode = 1;
}
