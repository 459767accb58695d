import { describe, expect, it } from 'vitest';
import { oneAtATime } from '../../../../main/remote/one-at-a-time';

describe('one sync at a time', () => {
  it('starts a call only after the one before it ended, even when that one failed', async () => {
    const log: string[] = [];
    let running = 0;
    let n = 0;
    const sync = oneAtATime(async () => {
      const i = n++;
      running++;
      expect(running).toBe(1);
      log.push(`start ${i}`);
      await new Promise((r) => setTimeout(r, 5));
      log.push(`end ${i}`);
      running--;
      if (i === 0) throw new Error('first fails');
    });
    const results = await Promise.allSettled([sync(), sync(), sync()]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
  });
});
