import { describe, expect, it } from 'vitest';
import { timeOrderedIds } from '../../../main/engine/ids';

describe('time-ordered ids', () => {
  it('are unique and sorted even when many are made in one millisecond', () => {
    const ids = timeOrderedIds(() => 1_700_000_000_000);
    const made = Array.from({ length: 5000 }, () => ids('req'));
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
    expect(made[0]).toMatch(/^req-[0-9a-hjkmnp-tv-z]{10}$/);
  });

  it('keep their order across milliseconds and never go back when the clock does', () => {
    let t = 1_700_000_000_000;
    const ids = timeOrderedIds(() => t);
    const a = ids('req');
    t += 5;
    const b = ids('req');
    t -= 100;
    const c = ids('req');
    expect([a, b, c]).toEqual([a, b, c].sort());
    expect(new Set([a, b, c]).size).toBe(3);
  });
});
