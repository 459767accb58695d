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

  it('a kept answer that no longer holds is made again', () => {
    let holds = true;
    let computed = 0;
    const cache = new RecentCache<number>(1000, 4, () => 0);
    const look = () =>
      cache.get(
        'a',
        () => ++computed,
        () => holds,
      );
    expect([look(), look()]).toEqual([1, 1]);
    holds = false;
    expect(look()).toBe(2);
  });
});
