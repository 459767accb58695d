// Benchmark: the cost of understanding one shell command, new allowlist vs the baseline.
//
// For each command of the everyday corpus (test/fixtures/everyday-commands.txt): what the
// daemon does with a Bash call's command before its rules — `bashActions` (parse, shell
// analysis with the allowlist, mapping to candidate actions) plus the second `analyse` the
// path protection runs on the same command. The baseline is the same code at commit 9ce18f0
// (before the command allowlist), extracted with `git archive` and bundled with esbuild in
// the same run, on the same tree-sitter parser. Target: new / baseline ≤ 1.2 (the median
// of pairs of passes). BENCH_QUICK=1: a fraction of a second, the target not enforced.
//
// Run: node bench/command-analysis.bench.mjs [rounds=7]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractBaseline, importSources } from './lib/import-sources.mjs';
import { median, pairedPasses } from './lib/paired-passes.mjs';
import { ROOT } from './lib/processes.mjs';

const BASELINE = '9ce18f0';
const TARGET_RATIO = 1.2;
const quick = process.env.BENCH_QUICK === '1';
const rounds = quick ? 1 : Number(process.argv[2] ?? 7);
const passes = quick ? 1 : 20;

/** Bundles `shared/` from `dir` (the repo or the baseline's copy) and imports it. */
const load = (name, dir) =>
  importSources(
    name,
    [
      "export { bashActions } from './shared/tools/bash-actions';",
      "export { loadBashParser } from './shared/node/bash-parser';",
    ],
    dir,
  );

const baselineTree = extractBaseline(BASELINE, ['shared'], 'baseline');
const baselineDir = baselineTree.dir;

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

// Warm both (JIT, parser memory). Then pairs of passes, in alternating order, so that load
// from other processes on the machine hits both sides of each pair alike; the figure is the
// median of the pairs' ratios.
for (let w = 0; w < (quick ? 1 : 5); w++) {
  measure('new');
  measure('baseline');
}
const { times, ratios } = pairedPasses(measure, rounds * passes);
const ratio = median(ratios);
console.log(
  `command analysis on ${corpus.length} everyday commands, ${ratios.length} pairs of passes`,
);
console.log(`  baseline (${BASELINE}): ${median(times.baseline).toFixed(1)} µs per call (median)`);
console.log(`  allowlist (now):   ${median(times.new).toFixed(1)} µs per call (median)`);
console.log(
  `  ratio (median of pairs): ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO})${quick ? ' — quick mode, not enforced' : ''}`,
);
baselineTree.remove();
if (!quick && ratio > TARGET_RATIO) process.exitCode = 1;
