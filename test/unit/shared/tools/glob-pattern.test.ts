import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { globRegExp } from '../../../../shared/tools/glob-pattern';

const NAMES = [
  '.env',
  '.git',
  'a',
  'b',
  'Z',
  'A1',
  '1',
  '!x',
  '^y',
  '[z',
  ']w',
  '-v',
  'a-b',
  ' sp',
  'x.ts',
  'é',
  'ab*',
  'q?',
  '@(n)',
];
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-glob-'));
for (const n of NAMES) writeFileSync(join(dir, n), '');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The names bash matches (dotglob: a leading dot matches, as in Gatehouse's check). */
const bashMatches = (pattern: string): string[] =>
  execFileSync(
    'bash',
    ['-c', `shopt -s dotglob nullglob; for f in ${pattern}; do echo "$f"; done`],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C.UTF-8' },
    },
  )
    .split('\n')
    .filter(Boolean)
    .sort();
const ours = (pattern: string): string[] => NAMES.filter((n) => globRegExp(pattern).test(n)).sort();

describe('globRegExp', () => {
  it.each([
    '*',
    '!*',
    '^*',
    '[[]*',
    '[]]*',
    '[a-c]',
    '[[:alpha:]]',
    '[[:digit:]]*',
    '[[:upper:]]*',
    '[[:punct:]]*',
    '[[:alpha:][:digit:]]*',
    '?',
    '*.ts',
    '[-]*',
    '[a-]*',
    'a[-]b',
    '[a*',
    '[z*',
    '*[',
    'ab[*]',
    'q[?]',
    '[[:space:]]*',
  ])('%s matches what bash matches', (pattern) => {
    expect(ours(pattern)).toEqual(bashMatches(pattern));
  });

  // A set opening with `!` or `^` also matches as a set holding it: the word checked has lost
  // its quotes, and `[\\!a]` (`!` or `a`) reads as `[!a]` then. JavaScript refuses `[z-a]`.
  it.each(['.e[!x]v', '.e[^x]v', '[!a]*', '[^a]*', '[!]]*', '.[!.]*', '[!]*', '[z-a]*'])(
    '%s matches every name bash matches',
    (pattern) => {
      expect(ours(pattern)).toEqual(expect.arrayContaining(bashMatches(pattern)));
    },
  );

  it('reads a set opening with ! both ways', () => {
    expect(ours('[!a]*')).toEqual(expect.arrayContaining(['!x', 'a', 'b', 'Z']));
    expect(ours('[!]x')).toEqual(['!x']);
    expect(ours('.e[!x]v')).toEqual(['.env']);
  });

  it('no wildcard or set crosses a slash', () => {
    expect(globRegExp('a/*/c').test('a/b/c')).toBe(true);
    expect(globRegExp('a/*/c').test('a/b/x/c')).toBe(false);
    expect(globRegExp('a[!x]b').test('a/b')).toBe(false);
    expect(globRegExp('a?b').test('a/b')).toBe(false);
  });

  it('matches regardless of case when asked', () => {
    expect(globRegExp('.ENV', { caseInsensitive: true }).test('.env')).toBe(true);
    expect(globRegExp('[[:upper:]]x', { caseInsensitive: true }).test('ax')).toBe(true);
  });
});
