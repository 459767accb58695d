import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBashParser } from '../../../../../shared/node/bash-parser';
import type { ShellParser } from '../../../../../shared/tools/shell-syntax';
import { ATTACK_CLASSES } from '../../../../fixtures/attack-corpus';
import { commandClassifier, type CommandVerdict } from '../../../../support/command-verdict';

/**
 * The command analysis is the security boundary (what is auto and what asks), and its speed
 * work must not move a single verdict. This test pins, for every command of the everyday
 * corpus, the attack corpus and the shapes listed below, everything the analysis produces:
 * the parsed commands (words, redirects, dynamic words, the unproven reason), the opaque
 * constructs, the assignments, the candidate actions and each one's classification.
 *
 * The snapshot was written by the analysis as it was before its per-call cost was cut (commit
 * 958bd75). A change that means to change verdicts rewrites it on purpose:
 * `WRITE_COMMAND_VERDICTS=1 npx vitest run <this file>`, and the diff shows every verdict moved.
 */
const SNAPSHOT = join(__dirname, '../../../../fixtures/command-verdicts.json');

/** Shapes the two corpora have few of: backgrounds, arithmetic, expansions, nesting. */
const SHAPES = [
  'sleep 5 &',
  'npm run dev & sleep 2; curl localhost:3000',
  'echo $((1 & 3))',
  'ls 2>&1 | head',
  'make &> build.log',
  'a && b || c & d',
  '(cd src && ls) &',
  'x=3; echo $((x + 1))',
  "x='a[$(id)]'; echo $((x))",
  'for i in 1 2 3; do echo $i; done',
  'for ((i=0; i<3; i++)); do echo $i; done',
  'read x; echo $((x))',
  '[[ $n -eq 1 ]] && echo one',
  'let y=2+2',
  'echo ${arr[i]}',
  'echo ${arr[0]} ${arr[@]}',
  'cat <(ls) >(wc -l)',
  'diff <(sort a) <(sort b)',
  'echo "$HOME/x" \'$HOME\' $\'a\\nb\' $"t"',
  'echo `date` "$(pwd)"',
  'ls "$(git rev-parse --show-toplevel)"/src',
  'cat *.md {a,b}.txt ?.log [ab].ts',
  'cat "*.md" \'{a,b}\'',
  "bash -c 'ls && rm -rf /tmp/x'",
  'sh -c "echo $HOME"',
  'bash -c "bash -c \\"bash -c \'bash -c ls\'\\""',
  "eval 'git push'",
  'eval "$CMD"',
  'bash < script.sh',
  'cat <<EOF | bash\nls\nEOF',
  'cat <<EOF > notes.md\nhello $USER\nEOF',
  'grep -q x <<< "$text"',
  'export PATH=/tmp/evil:$PATH; ls',
  'declare -n ref=PATH; ref=/tmp',
  'local a=1 b',
  'LD_PRELOAD=/tmp/x.so ls',
  'sudo -u root env FOO=1 timeout 5 nice -n 5 ls',
  'command -v node || which node',
  'xargs rm < list.txt',
  'find . -name "*.tmp" -exec rm {} \\;',
  'if [ -f a ]; then cat a; else echo none; fi',
  'case $x in a) ls;; *) pwd;; esac',
  'f() { ls; }; f',
  'echo unterminated "quote',
  'ls )(',
  'echo a\\\nb',
  "node -e \"require('fs').rmSync('x')\"",
  'python3 - <<PY\nprint(1)\nPY',
  'git -c core.pager=evil log',
  'npx gatehouse rules list',
  'kill %1; pkill node',
  'printf -v x %s 1; echo $((x))',
];

const corpus = readFileSync(join(__dirname, '../../../../fixtures/everyday-commands.txt'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() && !line.startsWith('#'));

const commands = [
  ...new Set([
    ...corpus,
    ...ATTACK_CLASSES.flatMap((c) => c.attacks.map((a) => a.command)),
    ...SHAPES,
  ]),
];

let parser: ShellParser;
let verdict: (command: string) => CommandVerdict;
let root: string;
beforeAll(async () => {
  parser = await loadBashParser();
  const classifier = await commandClassifier();
  verdict = classifier.verdict;
  // The classifier's fake user lives in a fresh temporary folder: name it the same every run.
  root = classifier.project.slice(0, -'/home/code/app'.length);
});

/** Everything the analysis and the classification make of one command, as plain JSON. */
function record(command: string): unknown {
  const analysis = parser.analyse(command);
  const v = verdict(command);
  const json = JSON.stringify({
    tier: v.tier,
    candidates: v.candidates.map((c) => ({ spec: c.spec, verdict: c.verdict })),
    commands: analysis.commands,
    opaque: analysis.opaque,
    assignments: [...analysis.assignments],
  });
  return JSON.parse(json.split(root).join('<tmp>'));
}

describe('the command analysis and its verdicts', () => {
  it('are what the snapshot pinned, command by command', () => {
    const actual = Object.fromEntries(commands.map((c) => [c, record(c)]));
    if (process.env.WRITE_COMMAND_VERDICTS === '1') {
      const lines = Object.entries(actual).map(
        ([c, r]) => `  ${JSON.stringify(c)}: ${JSON.stringify(r)}`,
      );
      writeFileSync(SNAPSHOT, `{\n${lines.join(',\n')}\n}\n`);
    }
    const pinned = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(pinned).sort()).toEqual(Object.keys(actual).sort());
    for (const c of commands) expect(actual[c], c).toEqual(pinned[c]);
    // Both sides of the boundary are in it: the snapshot is not all one verdict.
    const tiers = Object.values(actual).map((r) => (r as { tier: string }).tier);
    expect(tiers.filter((t) => t === 'auto').length).toBeGreaterThan(200);
    expect(tiers.filter((t) => t === 'ask').length).toBeGreaterThan(200);
  });
});
