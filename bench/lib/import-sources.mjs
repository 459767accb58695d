// Bundles the project's TypeScript sources with esbuild and imports the result, so that a
// benchmark measures the same code the daemon runs. The bundle goes inside the repo
// (node_modules/.cache) so that the packages it leaves external resolve from node_modules.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './processes.mjs';

const CACHE = join(ROOT, 'node_modules', '.cache', 'gatehouse-bench');

/**
 * Builds a module from `exportLines` (paths relative to `dir`, the repo root unless given: a
 * baseline's copy, see extractBaseline) and imports it.
 */
export async function importSources(name, exportLines, dir = ROOT) {
  const outDir = CACHE;
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, `${name}.mjs`);
  const built = await build({
    write: false,
    stdin: {
      contents: exportLines.join('\n'),
      resolveDir: dir,
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
  // A new file renamed over the old, never the old one rewritten: a worktree made with
  // `cp -al` shares node_modules' files with its source by hard links, and a bench running
  // there would change the module another one is about to import.
  const temporary = `${outfile}.${process.pid}.tmp`;
  writeFileSync(temporary, built.outputFiles[0].contents);
  renameSync(temporary, outfile);
  return import(pathToFileURL(outfile).href);
}

/**
 * The `folders` of the project at commit `rev`, written (by `git archive`) to a fresh folder
 * in the bench cache, so a benchmark can bundle the baseline beside today's code in one run.
 * Returns the folder and a function that removes it.
 */
export function extractBaseline(rev, folders, label) {
  const dir = join(CACHE, `${label}-${rev}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['archive', rev, ...folders], {
    cwd: ROOT,
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
