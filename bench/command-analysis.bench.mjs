// Benchmark: the cost of understanding one shell command, new allowlist vs the baseline.
//
// For each command of the everyday corpus (test/fixtures/everyday-commands.txt): what the
// daemon does with a Bash call's command before its rules — `bashActions` (parse, shell
// analysis with the allowlist, mapping to candidate actions) plus the second `analyse` the
// path protection runs on the same command. The baseline is the same code at commit 9ce18f0
// (before the command allowlist), extracted with `git archive` and bundled with esbuild in
// the same run, on the same tree-sitter parser. Target: new / baseline ≤ 1.2 (the median
// of pairs of passes, in CPU time: on a shared machine a pass's wall time also counts the
// time it waited for a core; the wall figures are printed beside). BENCH_QUICK=1: a fraction
// of a second, the target not enforced.
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

/** Each side's wall-clock microseconds per call, pass by pass (printed beside the CPU time). */
const wall = { new: [], baseline: [] };

/** CPU microseconds per call over one pass through the corpus. */
function measure(which) {
  const parser = parsers[which];
  const map = mapper[which];
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  let sink = 0;
  for (const command of corpus) {
    sink += map(command, parser).length;
    sink += parser.analyse(command).commands.length;
  }
  const used = process.cpuUsage(cpu);
  wall[which].push(Number(process.hrtime.bigint() - start) / 1000 / corpus.length);
  if (sink < 0) console.log(sink);
  return (used.user + used.system) / corpus.length;
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
const figures = (which) =>
  `${median(times[which]).toFixed(1)} µs CPU per call (median; wall ${median(wall[which]).toFixed(1)} µs)`;
console.log(`  baseline (${BASELINE}): ${figures('baseline')}`);
console.log(`  allowlist (now):   ${figures('new')}`);
console.log(
  `  ratio (median of pairs): ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO})${quick ? ' — quick mode, not enforced' : ''}`,
);
baselineTree.remove();
if (!quick && ratio > TARGET_RATIO) process.exitCode = 1;
