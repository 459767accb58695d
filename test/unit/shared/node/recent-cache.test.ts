import { describe, expect, it } from 'vitest';
import { RecentCache } from '../../../../shared/node/recent-cache';

describe('RecentCache', () => {
  it('answers from memory within its time, asks again after it, and starts over when full', () => {
    let now = 1_000;
    let computed = 0;
    const cache = new RecentCache<number>(1000, 2, () => now);
    const look = (key: string) => cache.get(key, () => ++computed);
    expect(look('a')).toBe(1);
    expect(look('a')).toBe(1);
    now += 999;
    expect(look('a')).toBe(1);
    now += 1;
    expect(look('a')).toBe(2); // a second later the lookup runs again: a link may have changed
    look('b');
    look('c'); // full: everything is forgotten rather than growing without bound
    expect(look('a')).toBe(5);
  });
});
