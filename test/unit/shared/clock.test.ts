/** iso() keeps its last text: the kept one must never answer for another time. */
import { describe, expect, it } from 'vitest';
import { iso } from '../../../shared/clock';

describe('iso', () => {
  it('formats each time as Date does, whatever it formatted just before', () => {
    const times = [0, 1, 1, 1_764_123_456_789, 1, 1_764_123_456_790, 1_764_123_456_790, -1];
    for (const ms of times) expect(iso(ms)).toBe(new Date(ms).toISOString());
  });

  it('still refuses a time that is not one', () => {
    expect(() => iso(Number.NaN)).toThrow(RangeError);
    expect(() => iso(Number.NaN)).toThrow(RangeError);
  });
});
