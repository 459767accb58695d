import { beforeAll, describe, expect, it } from 'vitest';
import { loadBashParser } from '../../../../../shared/node/bash-parser';
import { awkProgramProblem } from '../../../../../shared/tools/commands/awk-program';
import { sedScriptProblem } from '../../../../../shared/tools/commands/sed-script';
import type { ShellParser } from '../../../../../shared/tools/shell-syntax';
import { commandClassifier, type CommandVerdict } from '../../../../support/command-verdict';

let parser: ShellParser;
let verdict: (command: string) => CommandVerdict;
beforeAll(async () => {
  parser = await loadBashParser();
  ({ verdict } = await commandClassifier());
});

const unproven = (command: string): string[] =>
  parser
    .analyse(command)
    .opaque.filter((o) => o.construct === 'unproven')
    .map((o) => o.reason);

describe('the allowlist keeps understood everyday calls auto', () => {
  it.each([
    `awk -F, '{print $2}' data.csv`,
    `awk '$3 == "x" || NR == 1 {printf "%s\\n", $1}' data.csv`,
    `awk "{print \\$1}" data.csv`,
    `sed -n '/start/,/end/p' notes.md`,
    `sed 's|a|b|g' notes.md`,
    `sed -e 's/a/b/' -e '/x/d' notes.md`,
    `sed -ne '1,5p' notes.md`,
    `sed -E 's/(a+)/[\\1]/2' notes.md`,
    'git log --oneline -n 5',
    'git --no-pager log -3 --stat',
    'git -C sub status --short',
    'git diff --text HEAD~1',
    'git show HEAD:package.json',
    'git tag -l',
    'git stash list',
    'tar -tzf a.tar.gz',
    'tar tf a.tar',
    'tar --list --file=a.tar',
    `find . -name '*.ts' -type f -not -path './node_modules/*'`,
    'for f in src/*.ts; do wc -l "$f"; done',
    'ls -la *.json',
    'sort -k2 -n -t, data.csv | uniq -c',
    'jq -r .name package.json',
    'npx vitest run src/x.test.ts',
    'python3 -m pytest -q -k login',
    'CI=1 npm test',
    'LC_ALL=C sort names.txt',
    'export CI=1; npm test',
    'f=src/a.ts; cat $f',
    'head -n 20 a.txt && tail -5 b.txt',
    'grep -rn --include=*.ts TODO src',
    'node --version',
    'npm --version',
    'go test -run TestX -count=1 ./...',
    'cargo test --release -- --nocapture',
    'make -j4 test',
    'timeout 60 npx vitest run',
    'command -v node',
    `bash -c 'git status && git diff --stat'`,
  ])('%s is auto', (command) => {
    expect(unproven(command)).toEqual([]);
    const v = verdict(command);
    expect(v.tier, JSON.stringify(v.candidates)).toBe('auto');
  });
});

describe('unproven parts ask, naming the part', () => {
  it.each([
    // The script is the word after -e inside a cluster, not the first operand.
    [`sed -ne 'w out.txt' p`, 'sed w writes a file'],
    [`sed -nre '1e id' f`, 'sed e runs a command'],
    [`sed --expression='1e id' f`, 'sed e runs a command'],
    // Expansions inside a quoted script make it another script when it runs.
    [`sed "s/$A/b/" notes.md`, 'sed script holds an expansion'],
    [`awk "{print $X}" data.csv`, 'awk program holds an expansion'],
    [`awk "$PROG" data.csv`, 'may expand to an option of awk'],
    // Abbreviated long options are the dangerous ones.
    ['sort --out=x.txt names.txt', 'sort --out is not an option known to be harmless'],
    ['git log --outp=x', 'git --output writes a file'],
    [`git push --rec='touch pwned' origin`, 'git --receive-pack runs a program'],
    ['tar -xf a.tar --to-comm=sh', 'tar --to-comm=sh runs a program'],
    ['tar -tf a.tar --checkpoint-act=exec=id', 'tar --checkpoint-act=exec=id runs a program'],
    // A listing reaches another host, or uses an option not known for a listing.
    ['tar -tf backup:a.tar', 'on another host'],
    ['tar -tf a.tar --remove-files', 'not an option known to be harmless for a listing'],
    // Words that may expand to options.
    ['sort $OPTS names.txt', '$OPTS may expand to an option of sort'],
    ['git $SUB status', 'may expand to a git option'],
    [`find . $EXPR`, 'may expand to a find expression'],
    // Prefixes.
    ['nice -n 5 env -S "sh -c id"', 'env -S'],
    ['time -o out.txt ls', 'time -o is not an option known to be harmless'],
  ])('%s: %s', (command, reason) => {
    expect(unproven(command).join('\n')).toContain(reason);
    expect(verdict(command).tier).toBe('ask');
  });
});

describe('names that are keys of every object', () => {
  it.each(['constructor x', 'toString README.md', '__proto__ a', 'hasOwnProperty x'])(
    '%s is an unknown program, which asks',
    (command) => {
      expect(verdict(command).tier).toBe('ask');
    },
  );

  it.each(['git log __proto__', 'find . constructor', 'npm ls constructor', 'sort -- toString'])(
    '%s is judged like any word',
    (command) => {
      expect(() => verdict(command)).not.toThrow();
      expect(unproven(command)).toEqual([]);
    },
  );
});

describe('the sed script reader', () => {
  it.each([
    ['p', undefined],
    ['1,/x/{s/a/b/g;p}', undefined],
    ['$!N;P;D', undefined],
    ['/a/I,+2d', undefined],
    ['y/abc/xyz/', undefined],
    ['a\\\nappended text w not a command', undefined],
    ['s/x/y/w out', 'sed s///w writes a file'],
    ['s/x/y/ge', 'sed s///e runs the result as a command'],
    ['s#a#b#;e id', 'sed e runs a command'],
    ['1!G;h;$!d;W out', 'sed w writes a file'],
    ['R /etc/passwd', 'sed r reads a file the path checks do not see'],
    ['s/unterminated', 'the sed script does not parse'],
    ['k', 'sed k is not a command known to be harmless'],
  ])('%j → %s', (script, problem) => {
    expect(sedScriptProblem(script)).toBe(problem);
  });
});

describe('the awk subset', () => {
  it.each([
    ['{print $1}', undefined],
    ['NR>1', undefined],
    ['$3 > 1000 {print $1}', undefined],
    ['/foo/ {n++} END {print n}', undefined],
    ['{ s += $2 } END { printf "%d\\n", s }', undefined],
    ['{print "a > b | c"}', undefined],
    ['{ print $1 / 1024 } END { print sum / NR }', undefined],
    ['{ x = a / "x" / b }', undefined],
    ['/a\\/b/ { print }', undefined],
    ['$1 ~ /^[[:alpha:]]+$/ && $2 !~ /[]x]/', undefined],
    ['{ gsub(/"/, "") } 1', undefined],
    ['# a "comment\n{print} # and another /', undefined],
    ['{ print (2 > 1) ; printf("%s\\n", $1 > 1) }', undefined],
    ['{ x = 1 \\\n + 2 }', undefined],
    ['BEGIN{system("id")}', 'awk system() runs a command'],
    ['BEGIN{awk::system("id")}', 'awk system() runs a command'],
    ['{print | "sort"}', 'awk | runs a command'],
    ['{print |& "sort"}', 'awk | runs a command'],
    ['{print >> "log"}', 'awk > can write a file'],
    ['{print($1) > "f"}', 'awk > can write a file'],
    ['{print $1,\n $2 > "f"}', 'awk > can write a file'],
    ['{print 1 > 0 ? "y" : "n"}', 'awk > can write a file'],
    ['{print a[1 > 0]}', 'awk > can write a file'],
    ['{"date" | getline d}', 'awk getline can run a command or read any file'],
    ['BEGIN{close("x")}', 'awk close/fflush act on commands and files'],
    ['@include "x"', 'awk @include/@load load code'],
    ['BEGIN { for (k in ENVIRON) print k }', 'awk PROCINFO/ENVIRON reach outside the program'],
    ['{print "unterminated}', 'awk programs can run commands (a string does not close)'],
  ])('%j → %s', (program, problem) => {
    expect(awkProgramProblem(program)).toBe(problem);
  });

  // A `"` inside a regex literal once paired with the next string's quote, so the code
  // between them was read as string text and system() went unseen.
  it.each([
    ['BEGIN { x = /"/ ; system("touch pwned") ; y = /"/ }', 'awk system() runs a command'],
    [
      'BEGIN { x = /"/; while (("cat .e" "nv") | getline l) print l; y = /"/ }',
      'awk getline can run a command or read any file',
    ],
    ['BEGIN { x = /"/; print "a" > ".claude/settings.json"; y = /"/ }', 'awk > can write a file'],
    ['BEGIN { x = /\\"/ ; system("id") ; y = /"/ }', 'awk system() runs a command'],
    ['# "\nBEGIN { system("id") } # "', 'awk system() runs a command'],
  ])('a quote in a regex or comment hides nothing: %j', (program, problem) => {
    expect(awkProgramProblem(program)).toBe(problem);
  });

  // gawk and mawk read these `/` differently (a regex in one, a division in the other), or
  // end the regex at a different `/`: such a program is not read.
  it.each([
    '{ x = i++ /"/ ; system("id") ; y = /"/ }',
    '{ x = length /"/ ; system("id") ; y = /"/ }',
    '{ if (1) /"/ ; system("id") ; y = /"/ }',
    '{ while (0)\n/x/ }',
    '{ x = (a\n/ 2) }',
  ])('an ambiguous / asks: %j', (program) => {
    expect(awkProgramProblem(program)).toBe(
      'awk programs can run commands (a / that awks read either as a regex or as a division)',
    );
  });

  it.each(['$0 ~ /[/"]/ { system("id") } /"/', '/[[:alpha:]/]/', '/[]/]/'])(
    'a / inside a regex bracket asks: %j',
    (program) => {
      expect(awkProgramProblem(program)).toBe(
        'awk programs can run commands (a regex [...] that holds a / or does not close)',
      );
    },
  );

  it.each([
    '{ print }\r\n',
    '{ x = a \\ b }',
    '{ print "é" } é',
    'BEGIN { x = "€\\" ; system("id") ; y = "" }',
  ])('what awk may read another way asks: %j', (program) => {
    expect(awkProgramProblem(program)).toBe(
      'awk programs can run commands (Gatehouse does not read this program)',
    );
  });
});
