import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBashParser } from '../../../../shared/node/bash-parser';
import type { ShellParser } from '../../../../shared/tools/shell-syntax';

let shell: ShellParser;
beforeAll(async () => {
  shell = await loadBashParser();
});

/** A small deterministic generator (mulberry32), so a failure names the same words each run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The characters where tree-sitter-bash has been seen to split, drop or join words. */
const CHARS = 'a[]!{},=:~*?-.#%^@+"\'\\$ ';

function randomWords(seed: number, count: number): string[] {
  const next = random(seed);
  const out = new Set<string>();
  while (out.size < count) {
    let w = '';
    const length = 1 + Math.floor(next() * 7);
    for (let i = 0; i < length; i++) w += CHARS[Math.floor(next() * CHARS.length)];
    // A trailing backslash would join the next line; leading and trailing spaces are no word.
    if (!w.endsWith('\\') && w.trim() === w) out.add(w);
  }
  return [...out];
}

/**
 * How many words bash makes of each text after `cat`, or undefined where bash refuses it
 * (an unclosed quote). Every parameter is set and has no space, so no expansion adds or
 * removes a word; globs and braces are off, so only the splitting into words counts.
 */
function bashWordCounts(texts: readonly string[]): (number | undefined)[] {
  const script = [
    'set -f +B',
    'set -- P',
    ': &',
    'f() { echo $#; }',
    'while IFS= read -r line; do eval "f $line" 2>/dev/null || echo ERR; done',
  ].join('\n');
  const out = execFileSync('bash', ['-c', script], {
    input: `${texts.join('\n')}\n`,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, a: 'A' },
  });
  return out
    .trim()
    .split('\n')
    .map((line) => (line === 'ERR' ? undefined : Number(line)));
}

describe("the shell analysis' words against bash's", () => {
  it('a command whose words are not the ones bash reads asks', () => {
    const texts = randomWords(20261127, 3000);
    const counts = bashWordCounts(texts);
    expect(counts).toHaveLength(texts.length);
    const unflagged: string[] = [];
    let compared = 0;
    texts.forEach((text, i) => {
      const theirs = counts[i];
      if (theirs === undefined) return;
      compared++;
      const analysis = shell.analyse(`cat ${text}`);
      const ours = analysis.commands[0]?.words.length ?? 0;
      if (ours - 1 !== theirs && !analysis.opaque.length)
        unflagged.push(`cat ${text}: bash ${theirs} words, Gatehouse ${ours - 1}`);
    });
    expect(compared).toBeGreaterThan(1000);
    expect(unflagged).toEqual([]);
  });
});
