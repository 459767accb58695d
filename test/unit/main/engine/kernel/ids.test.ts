import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { idOrdinal, sequentialIds, timeOrderedIds } from '../../../../../main/engine/kernel/ids';

describe('time-ordered ids', () => {
  it('are unique and sorted even when many are made in one millisecond', () => {
    const ids = timeOrderedIds(() => 1_700_000_000_000, randomInt);
    const made = Array.from({ length: 5000 }, () => ids('req'));
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
    expect(made[0]).toMatch(/^req-[0-9a-hjkmnp-tv-z]{10}$/);
  });

  it('keep their order across milliseconds and never go back when the clock does', () => {
    let t = 1_700_000_000_000;
    const ids = timeOrderedIds(() => t, randomInt);
    const a = ids('req');
    t += 5;
    const b = ids('req');
    t -= 100;
    const c = ids('req');
    expect([a, b, c]).toEqual([a, b, c].sort());
    expect(new Set([a, b, c]).size).toBe(3);
  });

  it('spell numbers in the same order as the ids, and carry on after the newest stored one', () => {
    let t = 1_700_000_000_000;
    const before = timeOrderedIds(() => t, randomInt);
    const made = Array.from({ length: 50 }, () => before('req'));
    const ordinals = made.map((id) => idOrdinal(id)!);
    expect(ordinals.every(Number.isSafeInteger)).toBe(true);
    expect([...ordinals].sort((a, b) => a - b)).toEqual(ordinals);
    // A restart with the clock an hour behind still makes larger ids than the stored ones.
    t -= 3_600_000;
    const after = timeOrderedIds(() => t, randomInt, made[made.length - 1]);
    const next = after('req');
    expect(idOrdinal(next)!).toBeGreaterThan(ordinals[ordinals.length - 1]!);
    expect(next > made[made.length - 1]!).toBe(true);
  });

  it('read sequential test ids in order and refuse strings that are not ids', () => {
    const ids = sequentialIds();
    const made = Array.from({ length: 12 }, () => ids('req'));
    const ordinals = made.map((id) => idOrdinal(id)!);
    expect([...ordinals].sort((a, b) => a - b)).toEqual(ordinals);
    for (const odd of ['req', 'req-', '-abc', 'req-ABC', 'req-il0', 'req-01234567890']) {
      expect(idOrdinal(odd)).toBeUndefined();
    }
  });
});
