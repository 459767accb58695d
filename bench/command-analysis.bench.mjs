// Benchmark: the cost of understanding one shell command, new allowlist vs the baseline.
//
// For each command of the everyday corpus (test/fixtures/everyday-commands.txt): what the
// daemon does with a Bash call's command before its rules — `bashActions` (parse, shell
// analysis with the allowlist, mapping to candidate actions) plus the second `analyse` the
// path protection runs on the same command. The baseline is the same code at commit 9ce18f0
// (before the allowlist, issue 20), extracted with `git archive` and bundled with esbuild in
// the same run, on the same tree-sitter parser. Target: new / baseline ≤ 1.2 (the median
// of pairs of passes). BENCH_QUICK=1: a fraction of a second, the target not enforced.
//
// Run: node bench/command-analysis.bench.mjs [rounds=7]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ROOT } from './lib/processes.mjs';

const BASELINE = '9ce18f0';
const TARGET_RATIO = 1.2;
const quick = process.env.BENCH_QUICK === '1';
const rounds = quick ? 1 : Number(process.argv[2] ?? 7);
const passes = quick ? 1 : 20;

const cache = join(ROOT, 'node_modules', '.cache', 'gatehouse-bench');
const baselineDir = join(cache, `baseline-${BASELINE}`);

/** Bundles `shared/` from `dir` (the repo or the baseline's copy) and imports it. */
async function load(name, dir) {
  const outfile = join(cache, `${name}.mjs`);
  await build({
    stdin: {
      contents: [
        "export { bashActions } from './shared/tools/bash-actions';",
        "export { loadBashParser } from './shared/node/bash-parser';",
      ].join('\n'),
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
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
  return import(pathToFileURL(outfile).href);
}

rmSync(baselineDir, { recursive: true, force: true });
mkdirSync(baselineDir, { recursive: true });
const archive = execFileSync('git', ['archive', BASELINE, 'shared'], { cwd: ROOT });
execFileSync('tar', ['-x', '-C', baselineDir], { input: archive });

const current = await load('command-analysis-new', ROOT);
const baseline = await load('command-analysis-baseline', baselineDir);
const parsers = {
  new: await current.loadBashParser(),
  baseline: await baseline.loadBashParser(),
};
const mapper = { new: current.bashActions, baseline: baseline.bashActions };

const corpus = readFileSync(join(ROOT, 'test/fixtures/everyday-commands.txt'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'));

/** Microseconds per call over one pass through the corpus. */
function measure(which) {
  const parser = parsers[which];
  const map = mapper[which];
  const start = process.hrtime.bigint();
  let sink = 0;
  for (const command of corpus) {
    sink += map(command, parser).length;
    sink += parser.analyse(command).commands.length;
  }
  const ns = Number(process.hrtime.bigint() - start);
  if (sink < 0) console.log(sink);
  return ns / 1000 / corpus.length;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Warm both (JIT, parser memory). Then pairs of passes, in alternating order, so that load
// from other processes on the machine hits both sides of each pair alike; the figure is the
// median of the pairs' ratios.
for (let w = 0; w < (quick ? 1 : 5); w++) {
  measure('new');
  measure('baseline');
}
const times = { new: [], baseline: [] };
const ratios = [];
for (let i = 0; i < rounds * passes; i++) {
  const order = i % 2 ? ['baseline', 'new'] : ['new', 'baseline'];
  const t = {};
  for (const which of order) t[which] = measure(which);
  times.new.push(t.new);
  times.baseline.push(t.baseline);
  ratios.push(t.new / t.baseline);
}
const ratio = median(ratios);
console.log(
  `command analysis on ${corpus.length} everyday commands, ${ratios.length} pairs of passes`,
);
console.log(`  baseline (${BASELINE}): ${median(times.baseline).toFixed(1)} µs per call (median)`);
console.log(`  allowlist (now):   ${median(times.new).toFixed(1)} µs per call (median)`);
console.log(
  `  ratio (median of pairs): ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO})${quick ? ' — quick mode, not enforced' : ''}`,
);
rmSync(baselineDir, { recursive: true, force: true });
if (!quick && ratio > TARGET_RATIO) process.exitCode = 1;
