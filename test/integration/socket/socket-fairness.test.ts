/**
 * Fairness: identical connections that each keep many calls in flight are served
 * alike. Before, a connection with at most 8 lines waiting counted as "shallow" and was served
 * first, in chunks of 8, while one with more waited for a 0.1 ms share of each turn: once a
 * connection fell behind it stayed behind (468 to 1,671 calls per connection, 3.6x). Real
 * daemon, real socket, raw NDJSON connections in a closed loop.
 */
import { describe, expect, it } from 'vitest';
import { daemonPerDescribe, type TestDaemon } from '../../support/daemon';
import { rawSession } from '../../support/raw-socket';

const CONNECTIONS = 16;
const IN_FLIGHT = 25;
const WINDOW_MS = 1500;
/** Looser than the flood bench's 1.5x: a shared CI machine adds its own noise. */
const MAX_RATIO = 2;

describe('socket fairness (real daemon)', () => {
  let d: TestDaemon;
  daemonPerDescribe((daemon) => (d = daemon));

  it(`serves ${CONNECTIONS} identical connections with ${IN_FLIGHT} calls in flight each within ${MAX_RATIO}x`, async () => {
    const sessions = Array.from({ length: CONNECTIONS }, () => rawSession(d.socketPath));
    await Promise.all(sessions.map((s) => s.connected));
    await Promise.all(sessions.map((s, i) => s.call('hello', { agent: `fair-${i}` })));
    const counts = sessions.map(() => 0);
    let counting = false;
    let stopped = false;
    const lanes = sessions.flatMap((s, i) =>
      Array.from({ length: IN_FLIGHT }, async () => {
        while (!stopped) {
          const answer = await s.call('classify', { action: 'git_status' });
          if (!answer?.result) throw new Error(`no answer: ${JSON.stringify(answer)}`);
          if (counting && !stopped) counts[i]!++;
          // rawSession keeps every answer; drop this one so memory stays flat.
          s.messages.splice(s.messages.indexOf(answer), 1);
        }
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    counting = true;
    await new Promise((r) => setTimeout(r, WINDOW_MS));
    stopped = true;
    await Promise.all(lanes);
    for (const s of sessions) s.socket.destroy();
    const fewest = Math.min(...counts);
    const most = Math.max(...counts);
    expect(fewest, `calls per connection: ${counts.join(' ')}`).toBeGreaterThan(0);
    expect(most / fewest, `calls per connection: ${counts.join(' ')}`).toBeLessThanOrEqual(
      MAX_RATIO,
    );
  });
});
