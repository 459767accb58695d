import { afterEach, describe, expect, it, vi } from 'vitest';
import { EngineHarness, flush } from '../../../support/engine-harness';
import { FaultyStore } from '../../../support/faulty-store';

/** Timers whose state change could not be written try again until it is. */
describe('timed state changes retry after a failed write', () => {
  let h: EngineHarness;
  const faults = new FaultyStore();
  afterEach(async () => {
    await h.close();
    faults.failCommits = 0;
    faults.failWrites.clear();
    vi.restoreAllMocks();
  });

  it('a wait that times out on a full disk still answers the agent, once', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    h = new EngineHarness(faults.wrap);
    const a = h.hello();
    let answer: { status?: string } | undefined;
    void Promise.resolve(
      h.engine.request(a, {
        action: 'git_push',
        description: 'push',
        urgency: 'normal',
        wait: true,
        timeoutMs: 10_000,
      }),
    ).then((r) => (answer = r));
    await h.work.durable();
    const [pending] = h.store.listOpenRequests();

    // Two writes fail outright, then one commit fails: three attempts, backing off 1, 2, 4 s.
    faults.failWrites.set('updateRequest', 2);
    h.clock.advance(10_000);
    await flush();
    h.clock.advance(1000);
    await flush();
    expect(answer).toBeUndefined();
    faults.failCommits = 1;
    h.clock.advance(2000);
    await flush();
    expect(answer).toBeUndefined();
    expect(h.store.getRequest(pending!.requestId)?.status).toBe('pending');
    h.clock.advance(3999);
    await flush();
    expect(answer).toBeUndefined();
    h.clock.advance(1);
    await flush();
    expect(answer).toEqual({ requestId: pending!.requestId, status: 'timed_out' });
    expect(h.store.getRequest(pending!.requestId)?.status).toBe('timed_out');
    const audited = h.store.queryAudit({ type: 'request.timed_out', limit: 10 });
    expect(audited).toHaveLength(1);
    expect(h.events.filter((e) => e.type === 'request.timed_out')).toHaveLength(1);
    expect(h.clock.pendingTimers()).toBe(0);
  });

  it('a decision that lands while the timeout is retrying wins, and the retry stops', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    h = new EngineHarness(faults.wrap);
    const a = h.hello();
    const answer = Promise.resolve(
      h.engine.request(a, {
        action: 'git_push',
        description: 'push',
        urgency: 'normal',
        wait: true,
        timeoutMs: 10_000,
      }),
    );
    await h.work.durable();
    const [pending] = h.store.listOpenRequests();
    faults.failWrites.set('updateRequest', 1);
    h.clock.advance(10_000);
    await flush();
    h.engine.admin.call('decide', {
      requestId: pending!.requestId,
      decision: 'approve',
      scope: 'once',
    });
    await h.work.durable();
    expect(await answer).toMatchObject({ status: 'approved' });
    h.clock.advance(60_000);
    await flush();
    expect(h.store.getRequest(pending!.requestId)?.status).toBe('approved');
  });

  it('a grace period that ends on a full disk ends the session once the write succeeds', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    h = new EngineHarness(faults.wrap);
    const a = h.hello();
    await h.work.durable();
    const grace = h.settings.get().sessions.graceMs;
    h.engine.detach(a.sessionId);

    faults.failWrites.set('updateSession', 1);
    h.clock.advance(grace);
    await flush();
    expect(
      h.engine.admin.call('session.get', {
        sessionId: a.sessionId,
        requestsLimit: 0,
        transcriptLimit: 0,
      }).session.status,
    ).toBe('active');
    faults.failCommits = 1;
    h.clock.advance(1000);
    await flush();
    expect(
      h.engine.admin.call('session.get', {
        sessionId: a.sessionId,
        requestsLimit: 0,
        transcriptLimit: 0,
      }).session.status,
    ).toBe('active');
    expect(h.store.getSession(a.sessionId)?.status).toBe('active');
    h.clock.advance(2000);
    await flush();
    expect(h.store.getSession(a.sessionId)?.status).toBe('abandoned');
    expect(
      h.engine.admin.call('session.get', {
        sessionId: a.sessionId,
        requestsLimit: 0,
        transcriptLimit: 0,
      }).session.status,
    ).toBe('abandoned');
    expect(h.events.filter((e) => e.type === 'session.ended')).toHaveLength(1);
    expect(h.clock.pendingTimers()).toBe(0);
  });

  it('an agent that comes back while the end is retrying keeps its session', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    h = new EngineHarness(faults.wrap);
    const a = h.hello();
    await h.work.durable();
    h.engine.detach(a.sessionId);
    faults.failWrites.set('updateSession', 1);
    h.clock.advance(h.settings.get().sessions.graceMs);
    await flush();
    h.engine.attach(a.sessionId);
    h.clock.advance(120_000);
    await flush();
    expect(h.store.getSession(a.sessionId)?.status).toBe('active');
  });
});
