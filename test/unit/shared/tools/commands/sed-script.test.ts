import { beforeAll, describe, expect, it } from 'vitest';
import { sedScriptProblem } from '../../../../../shared/tools/commands/sed-script';
import { commandClassifier, type CommandVerdict } from '../../../../support/command-verdict';

const RUNS = 'sed e runs a command';
const WRITES = 'sed w writes a file';
const READS = 'sed r reads a file the path checks do not see';
const S_RUNS = 'sed s///e runs the result as a command';
const S_WRITES = 'sed s///w writes a file';
const UNREAD = 'the sed script does not parse';

// Each script below was run through GNU sed 4.9 (`--sandbox` refuses e/r/w when it reads one).
describe('sed labels end where GNU sed 4.9 ends them: at a blank, `;`, `}`, `#`, a newline', () => {
  it.each([
    [':a e touch pwned', RUNS],
    [': a e id', RUNS],
    [':a\te id', RUNS],
    [':a r .env', READS],
    [':a w .claude/settings.json', WRITES],
    [':a R .env', READS],
    [':a W out', WRITES],
    [':a s/x/y/e', S_RUNS],
    ['{:a}\ne id', RUNS],
    ['{:a}e id', UNREAD], // `}` must end its command
    ['ba e id', RUNS],
    ['b e id', undefined], // the label `e`, then `i` with the text `d`
    ['ta r .env', READS],
    ['Tx w out', WRITES],
    ['v 4.2 e id', RUNS],
    [':a#x\ne id', RUNS],
    [':a;e id', RUNS],
    [':a', undefined],
    [':a;N;$!ba;s/\\n/ /g', undefined],
    [':a#comment e id', undefined],
    [':', UNREAD],
    ['1:a', UNREAD],
  ])('%j → %s', (script, problem) => {
    expect(sedScriptProblem(script)).toBe(problem);
  });
});

describe('a bracket expression holds the delimiter, as in GNU sed 4.9', () => {
  it.each([
    ['s/[/]*.*/touch pwned/e', S_RUNS],
    ['s/[/]*.*/cat .env/e', S_RUNS],
    ['s/[/]*/a/;s/^a//w .claude/settings.json', S_WRITES],
    ['s/[]/]*.*/cat .env/e', S_RUNS],
    ['s/[^]/]*.*/cat .env/e', S_RUNS],
    ['s/[[:alpha:]/]*.*/id/e', S_RUNS],
    ['s/[[.].]/]/id/e', S_RUNS],
    ['s/[[=/=]]/id/e', S_RUNS],
    ['s/[[:]/]/id/e', UNREAD], // `[:` opens a class no `:]` closes: the bracket never ends
    ['/[/]/e id', RUNS],
    ['\\,[,],e id', RUNS],
    ['s|[|]|id|e', S_RUNS],
    ['s/\\[/]/id/e', UNREAD], // `\[` is no bracket: the regex is `\[`, the replacement `]`…
    ['s/\\[/x/e', S_RUNS],
    ['s/[/]/x/', undefined],
    ['s/[]]/x/g', undefined],
    ['s/[^]]*/x/', undefined],
    ['/[[:digit:]]\\{3\\}/p', undefined],
    ['s/[a-z/]*/x/;p', undefined],
    ['s/[/', UNREAD],
    ['s/[/\n]/x/', UNREAD],
    // In the replacement a `[` is a plain character.
    ['s/a/[/e', S_RUNS],
    ['s/a/[/;p', undefined],
  ])('%j → %s', (script, problem) => {
    expect(sedScriptProblem(script)).toBe(problem);
  });
});

describe('the rest of the script as GNU sed 4.9 reads it', () => {
  it.each([
    // s flags, blanks between them, several digits; w and e anywhere among them.
    ['s/a/b/ e', S_RUNS],
    ['s/a/b/g  w out', S_WRITES],
    ['s/a/b/2gpIM', undefined],
    ['s/a/b/12;p', undefined],
    ['s/a/b/ge', S_RUNS],
    ['s/a/b/mw out', S_WRITES],
    ['s/a/b/gx', UNREAD],
    ['s/a/b/g}', undefined],
    // Other delimiters, escapes of them, newlines escaped in the parts.
    ['s|/usr|/opt|g', undefined],
    ['s,a\\,b,c,e', S_RUNS],
    ['s/a\\/b/c/;e id', RUNS],
    ['s a b e', S_RUNS],
    ['s\\a\\b\\e', S_RUNS],
    ['s/a/b\\\n/e', S_RUNS],
    ['s/a/b\n/e', UNREAD],
    ['y/abc/xyz/', undefined],
    ['y/a\\/b/x\\/y/;e id', RUNS],
    ['y,a,b, e id', UNREAD],
    // Addresses: steps, ranges, flags (blanks allowed), negation.
    ['0~3p', undefined],
    ['1~3{p;e id}', RUNS],
    ['/x/I,+2p', undefined],
    ['/x/ M ,~4 !p', undefined],
    ['$!N;P;D', undefined],
    ['0,/x/e id', RUNS],
    ['1!!p', UNREAD],
    // a, i, c texts: GNU one-liners, `a\` texts, escaped newlines going on.
    ['a foo; e id', undefined],
    ['$a foo', undefined],
    ['a\\\nfoo\\\ne id', undefined],
    ['a\\\nfoo\ne id', RUNS],
    ['a\\foo\ne id', RUNS],
    ['a foo\\\\\ne id', RUNS],
    ['i\\', undefined],
    ['a', UNREAD],
    ['c\\\nline one\\\nline two\n$d', undefined],
    // Commands with a number, ends of commands, comments, blocks.
    ['l;l 5;q;Q 3', undefined],
    ['q5 e id', UNREAD],
    ['p e id', UNREAD],
    ['p # e id', undefined],
    ['#n\np', undefined],
    ['p#x\ne id', RUNS],
    ['/a/{p;q}', undefined],
    ['{p};e id', RUNS],
    ['1#x', UNREAD],
    ['F;z;=;x;h;H;g;G;n;N;d;D', undefined],
    ['L', 'sed L is not a command known to be harmless'],
    ['e', RUNS],
  ])('%j → %s', (script, problem) => {
    expect(sedScriptProblem(script)).toBe(problem);
  });
});

describe('a non-ASCII character before sed syntax', () => {
  // In GBK, Big5 or Shift-JIS sed may read the ASCII byte after it as part of the character.
  it.each([
    ['s/中\\/id/e', UNREAD],
    ['s/é[/]/x/', UNREAD],
    ['s|é|e|g', UNREAD],
    ['s/é/e/g', undefined],
    ['s/中文/x/g', undefined],
    ['a 中\\', undefined],
  ])('%j → %s', (script, problem) => {
    expect(sedScriptProblem(script)).toBe(problem);
  });
});

describe('sed commands: the -e pieces are one script, as sed reads them', () => {
  let verdict: (command: string) => CommandVerdict;
  beforeAll(async () => {
    ({ verdict } = await commandClassifier());
  });

  it.each([
    // `a x\\` ends its text; in `a x\` the next piece goes on with the text.
    `sed -e 'a x\\\\' -e 'e id' README.md`,
    `sed -ne '1{' -e 'e id' -e '}' README.md`,
    `sed --expression=':a' --expression 'e id' README.md`,
    `sed -n ':a e touch pwned' README.md`,
    `sed 's/[/]*.*/cat .env/e' README.md`,
    `sed -n -e 's/[/]*/a/' -e 's/^a//w .claude/settings.json' settings.txt`,
  ])('%s asks', (command) => {
    expect(verdict(command).tier).toBe('ask');
  });

  it.each([
    `sed -e 'a x\\' -e 'e id' README.md`,
    `sed -e '1{' -e 'p' -e '}' README.md`,
    `sed -e :a -e '$!N;s/\\n//;ta' README.md`,
    `sed -n '1,20p' README.md`,
    `sed 's/foo/bar/g' README.md`,
    `sed -e 's/a/b/' -e '/x/d' README.md`,
    `sed -n '/start/,/end/p' README.md`,
    `sed 's|/usr|/opt|g' README.md`,
    `sed -E -s -z --posix 's/[[:space:]]+$//' README.md`,
    `sed -n '0~3p' README.md`,
  ])('%s is auto', (command) => {
    expect(verdict(command).tier).toBe('auto');
  });
});
