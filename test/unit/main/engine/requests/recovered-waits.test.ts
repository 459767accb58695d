import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineHarness, flush } from '../../../../support/engine-harness';

/**
 * Start-up does not read the review queue: the waits a previous run left are
 * timed out from one timer on the soonest deadline, a batch at a time, not one timer each.
 */
describe('waits recovered after a restart', () => {
  let h: EngineHarness;
  beforeEach(() => (h = new EngineHarness()));
  afterEach(() => h.close());

  it('times each out at its own deadline with one timer armed at start', async () => {
    const a = h.hello();
    // 450 waits (more than two sweep batches), deadlines 1..450 s away, 3 per second; plus
    // one without a deadline, which never times out.
    const count = 450;
    for (let i = 0; i < count; i++) {
      void h.engine.request(a, {
        action: 'git_push',
        description: `push ${i}`,
        urgency: 'normal',
        wait: true,
        timeoutMs: 1000 + Math.floor(i / 3) * 1000,
      });
    }
    void h.engine.request(a, {
      action: 'git_push',
      description: 'no deadline',
      urgency: 'normal',
      wait: false,
    });
    await h.work.durable();
    h.restart();
    // The sessions' grace timers and the sweep's one timer: nothing per request.
    const graceTimers = h.store.listSessions({ status: 'active', limit: 10 }).length;
    expect(h.clock.pendingTimers()).toBe(graceTimers + 1);

    const timedOut = () => h.engine.admin.status().timedOut;
    h.clock.advance(999);
    await flush();
    expect(timedOut()).toBe(0);
    h.clock.advance(1);
    await flush();
    expect(timedOut()).toBe(3);
    // Everything due at once (the daemon was down past every deadline): batches, in order.
    h.clock.advance(count * 1000);
    for (let i = 0; i < 10; i++) {
      h.clock.advance(0);
      await flush();
    }
    expect(timedOut()).toBe(count);
    expect(h.engine.admin.status().pending).toBe(count + 1);
    expect(h.clock.pendingTimers()).toBeLessThanOrEqual(graceTimers + 1);
  });
});
