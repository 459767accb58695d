// Benchmark: the cost of the path checks of one classification, new vs the baseline.
//
// For each command of the everyday corpus (test/fixtures/everyday-commands.txt), each of its
// candidate actions is classified (`classifyAction`) with the daemon's path protection: the
// resolver, the protected roots and locations, the shell parser. That is where the shell's
// path resolution runs (cd flow, expansions, kernel `..`, protected locations). The baseline
// is the same code at commit 9ce18f0, extracted with `git archive` and bundled with esbuild in
// the same run. Both get the parser uncached (each classification parses, as before), so the
// analysis cache the daemon now keeps for one second does not flatter the new side. Each call
// carries the agent's PATH as the hook sends it (the gate's `shellPath`; the baseline ignores
// it), so the check of writes into its folders is counted. Target:
// new / baseline ≤ 1.2 (median of pairs of passes in alternating order).
// BENCH_QUICK=1: a fraction of a second, the target not enforced.
//
// Run: node bench/path-checks.bench.mjs [rounds=5]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractBaseline, importSources } from './lib/import-sources.mjs';
import { median, pairedPasses } from './lib/paired-passes.mjs';
import { ROOT } from './lib/processes.mjs';

const BASELINE = process.env.BENCH_BASELINE ?? '9ce18f0';
const TARGET_RATIO = 1.2;
const quick = process.env.BENCH_QUICK === '1';
const rounds = quick ? 1 : Number(process.argv[2] ?? 5);
const passes = quick ? 1 : 10;

/** Bundles the classifier and its path protection from `dir` and imports it. */
const load = (name, dir) =>
  importSources(
    name,
    [
      "export { classifyAction } from './main/engine/policy/classifier';",
      "export { pathProtection } from './main/protection';",
      "export { bashActions } from './shared/tools/bash-actions';",
      "export { loadBashParser } from './shared/node/bash-parser';",
    ],
    dir,
  );

const baselineTree = extractBaseline(BASELINE, ['shared', 'main'], 'paths-baseline');
const baselineDir = baselineTree.dir;

const current = await load('path-checks-new', ROOT);
const baseline = await load('path-checks-baseline', baselineDir);

// A project under a home, with Gatehouse's data directory where it is by default.
const root = mkdtempSync(join(tmpdir(), 'gatehouse-path-bench-'));
const home = join(root, 'home');
const data = join(home, '.local/share/gatehouse');
const project = join(home, 'code/app');
for (const d of [data, join(project, 'src'), join(project, 'test')])
  mkdirSync(d, { recursive: true });
for (const f of ['src/index.ts', 'src/app.ts', 'package.json', 'README.md'])
  writeFileSync(join(project, f), 'x\n');

// The PATH the hook reports with every call: a login's usual folders and a Node manager's.
const shellPath = [
  `${home}/.local/bin`,
  `${home}/bin`,
  `${home}/.nvm/versions/node/v20.20.0/bin`,
  '/usr/local/sbin',
  '/usr/local/bin',
  '/usr/sbin',
  '/usr/bin',
  '/sbin',
  '/bin',
].join(':');

const sides = {};
for (const [which, mod] of [
  ['new', current],
  ['baseline', baseline],
]) {
  const shell = await mod.loadBashParser();
  const protection = mod.pathProtection({ home: data, socketPath: join(root, 'run/agent.sock') });
  const paths = { ...protection, home, shell, cwd: project };
  // As the daemon's gate runs: its own parser (the new one keeps analyses for a second).
  const gatePaths = { ...protection, home, cwd: project };
  sides[which] = { classify: mod.classifyAction, paths, gatePaths, map: mod.bashActions };
}

const corpus = readFileSync(join(ROOT, 'test/fixtures/everyday-commands.txt'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'));
// The same candidate actions for both sides: this measures the classification, not the mapping.
const parser = await current.loadBashParser();
const calls = corpus.flatMap((command) =>
  current.bashActions(command, parser).map((c) => ({ ...c, command })),
);

/** Microseconds per classification over one pass through the corpus. */
function measure(which) {
  const { classify, paths } = sides[which];
  const start = process.hrtime.bigint();
  let sink = 0;
  for (const a of calls)
    sink += classify({ ...a, shellPath }, { project, rules: [], paths }).tier.length;
  const ns = Number(process.hrtime.bigint() - start);
  if (sink < 0) console.log(sink);
  return ns / 1000 / calls.length;
}

let gatePass = 0;
/**
 * Microseconds per Bash call as the gate handles it: map the command, then classify each
 * candidate, with the daemon's own parser. Each pass makes its commands unique (a comment),
 * so nothing is kept from one pass to the next; within a call the new side parses once.
 */
function measureGate(which) {
  const { classify, gatePaths, map } = sides[which];
  const tag = ` # pass ${gatePass++} ${which}`;
  const start = process.hrtime.bigint();
  let sink = 0;
  for (const c of corpus) {
    const command = c + tag;
    for (const a of map(command, gatePaths.shell))
      sink += classify({ ...a, command, shellPath }, { project, rules: [], paths: gatePaths }).tier
        .length;
  }
  const ns = Number(process.hrtime.bigint() - start);
  if (sink < 0) console.log(sink);
  return ns / 1000 / corpus.length;
}

for (let w = 0; w < (quick ? 1 : 3); w++) {
  measure('new');
  measure('baseline');
}
const { times, ratios } = pairedPasses(measure, rounds * passes);
const { times: gateTimes, ratios: gateRatios } = pairedPasses(measureGate, rounds * passes);
const ratio = median(ratios);
console.log(
  `path checks: ${calls.length} classifications of ${corpus.length} everyday commands, ${ratios.length} pairs of passes`,
);
console.log(
  `  baseline (${BASELINE}): ${median(times.baseline).toFixed(1)} µs per classify (median)`,
);
console.log(`  resolved paths (now): ${median(times.new).toFixed(1)} µs per classify (median)`);
console.log(
  `  ratio (median of pairs): ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO})${quick ? ' — quick mode, not enforced' : ''}`,
);
console.log(`gate (map + classify each candidate, the daemon's parser), per Bash call:`);
console.log(`  baseline (${BASELINE}): ${median(gateTimes.baseline).toFixed(1)} µs (median)`);
console.log(`  resolved paths (now): ${median(gateTimes.new).toFixed(1)} µs (median)`);
console.log(`  ratio (median of pairs): ${median(gateRatios).toFixed(2)}`);
baselineTree.remove();
rmSync(root, { recursive: true, force: true });
if (!quick && ratio > TARGET_RATIO) process.exitCode = 1;
