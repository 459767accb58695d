// Bundles the project's TypeScript sources with esbuild and imports the result, so that a
// benchmark measures the same code the daemon runs. The bundle goes inside the repo
// (node_modules/.cache) so that the packages it leaves external resolve from node_modules.
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './processes.mjs';

/** Builds a module from `exportLines` (paths relative to the repo root) and imports it. */
export async function importSources(name, exportLines) {
  const outDir = join(ROOT, 'node_modules', '.cache', 'gatehouse-bench');
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, `${name}.mjs`);
  await build({
    stdin: {
      contents: exportLines.join('\n'),
      resolveDir: ROOT,
      loader: 'ts',
      sourcefile: `${name}.ts`,
    },
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'warning',
    // Some dependencies call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
  return import(pathToFileURL(outfile).href);
}
