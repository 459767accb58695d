import { describe, expect, it } from 'vitest';
import {
  countOps,
  diffLines,
  splitLines,
  unifiedHunks,
  type DiffOp,
} from '../../../../shared/request-picture/line-diff';

/** Replays a script: the kept and removed lines must be `a`, the kept and added ones `b`. */
function replay(ops: readonly DiffOp[]): { a: string[]; b: string[] } {
  return {
    a: ops.filter((o) => o.kind !== '+').map((o) => o.line),
    b: ops.filter((o) => o.kind !== '-').map((o) => o.line),
  };
}

describe('line diff', () => {
  it('finds the minimal script for a small change', () => {
    const a = ['a', 'b', 'c', 'd', 'e'];
    const b = ['a', 'c', 'd', 'x', 'e'];
    const ops = diffLines(a, b);
    expect(replay(ops)).toEqual({ a, b });
    expect(countOps(ops)).toEqual({ added: 1, removed: 1 });
  });

  it('is a true script for random texts (and minimal where the answer is known)', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round++) {
      const a = Array.from(
        { length: Math.floor(rand() * 30) },
        () => 'abc'[Math.floor(rand() * 3)]!,
      );
      const b = Array.from(
        { length: Math.floor(rand() * 30) },
        () => 'abc'[Math.floor(rand() * 3)]!,
      );
      const ops = diffLines(a, b);
      expect(replay(ops)).toEqual({ a, b });
      // The LCS length by dynamic programming: a minimal script keeps exactly that many lines.
      const dp = Array.from({ length: a.length + 1 }, () =>
        new Array<number>(b.length + 1).fill(0),
      );
      for (let i = a.length - 1; i >= 0; i--)
        for (let j = b.length - 1; j >= 0; j--)
          dp[i]![j] =
            a[i] === b[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
      expect(ops.filter((o) => o.kind === ' ').length).toBe(dp[0]![0]);
    }
  });

  it('past its work limit still gives a true (longer) script', () => {
    const a = Array.from({ length: 2000 }, (_, i) => `old ${i}`);
    const b = Array.from({ length: 2000 }, (_, i) => `new ${i}`);
    const ops = diffLines(a, b, 1000);
    expect(replay(ops)).toEqual({ a, b });
    expect(countOps(ops)).toEqual({ added: 2000, removed: 2000 });
  });

  it('writes unified hunks with three lines of context and git line numbers', () => {
    const a = splitLines(Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    const b = [...a];
    b[9] = 'changed 10';
    b.splice(17, 0, 'inserted');
    expect(unifiedHunks(diffLines(a, b))).toBe(
      [
        // As `diff -u` writes it: seven unchanged lines between the changes make two hunks.
        '@@ -7,7 +7,7 @@',
        ' line 7',
        ' line 8',
        ' line 9',
        '-line 10',
        '+changed 10',
        ' line 11',
        ' line 12',
        ' line 13',
        '@@ -15,6 +15,7 @@',
        ' line 15',
        ' line 16',
        ' line 17',
        '+inserted',
        ' line 18',
        ' line 19',
        ' line 20',
      ].join('\n'),
    );
  });

  it('joins changes six lines apart into one hunk', () => {
    const a = Array.from({ length: 12 }, (_, i) => `l${i}`);
    const b = a.map((l, i) => (i === 2 || i === 9 ? `${l}!` : l));
    expect(unifiedHunks(diffLines(a, b)).split('\n')[0]).toBe('@@ -1,12 +1,12 @@');
  });

  it('numbers a new file from zero', () => {
    expect(unifiedHunks(diffLines([], ['x', 'y']))).toBe('@@ -0,0 +1,2 @@\n+x\n+y');
  });
});
