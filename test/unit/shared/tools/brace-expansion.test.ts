import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { expandBraces } from '../../../../shared/tools/brace-expansion';

/** What bash itself makes of each word (globbing off), one word a line. */
const bashWords = (word: string): string[] =>
  execFileSync('bash', ['-c', `set -f; printf '%s\\n' ${word}`], { encoding: 'utf8' })
    .split('\n')
    .slice(0, -1);

describe('expandBraces', () => {
  // Each word starts with a letter so that no expansion is empty (bash drops empty words).
  const words = [
    'a{b,c}d',
    'x{a,b}{c,d}',
    'x{a,b{c,d}}y',
    'x{a}y',
    'x{{a,b}}',
    'x{a{b,c}',
    'x{a,b',
    'x{,a}',
    'x{a,}',
    'x{}',
    'x{1..3}',
    'x{3..1}',
    'x{01..10..3}',
    'x{-2..2}',
    'x{-05..5..5}',
    'x{1..2..0}',
    'x{a..e..2}',
    'x{e..a}',
    'x{Z..c}',
    'x{a..b}{1..2}',
    'x{1..3}y{a,b}',
    '.en{v..v}',
    'x{a..1}',
    'x{1..a}',
    'x{aa..b}',
    'x{1...3}',
    'x{a,b}c{d}',
    'x{a,{b..c}}',
  ];
  it.each(words)('%s expands as bash expands it', (word) => {
    expect(expandBraces(word, 64)).toEqual(bashWords(word));
  });

  it('leaves ${…} to parameter expansion and expands the group after it', () => {
    expect(expandBraces('${HOME}/{a,b}', 64)).toEqual(['${HOME}/a', '${HOME}/b']);
    expect(expandBraces('${x,,}', 64)).toEqual(['${x,,}']);
  });

  it('keeps ~ and $ for the expansions after it', () => {
    expect(expandBraces('{~/.ssh,x}/id_rsa', 64)).toEqual(['~/.ssh/id_rsa', 'x/id_rsa']);
    expect(expandBraces('{$HOME,x}/f', 64)).toEqual(['$HOME/f', 'x/f']);
  });

  it('refuses more than max words rather than dropping some', () => {
    const many = `{${Array.from({ length: 70 }, (_, i) => `f${i}`).join(',')},.env}`;
    expect(expandBraces(many, 64)).toBeUndefined();
    expect(expandBraces('x{1..65}', 64)).toBeUndefined();
    expect(expandBraces('x{1..64}', 64)).toHaveLength(64);
    expect(expandBraces('x{1..99999999999999999999}', 64)).toBeUndefined();
    expect(expandBraces('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}', 64)).toBeUndefined();
  });
});
