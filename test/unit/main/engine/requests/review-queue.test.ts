import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineHarness, flush } from '../../../../support/engine-harness';

const req = (over: Record<string, unknown> = {}) => ({
  action: 'git_push',
  description: 'push',
  urgency: 'normal' as const,
  wait: true,
  ...over,
});

describe('review queue', () => {
  let h: EngineHarness;
  beforeEach(() => (h = new EngineHarness()));
  afterEach(() => h.close());

  it('approves auto actions at once and says which rule decided', async () => {
    const a = h.hello();
    expect(
      await h.engine.request(a, req({ action: 'read_file', description: 'read' })),
    ).toMatchObject({ status: 'approved', decidedBy: 'policy' });
    await h.work.durable();
    expect(h.events.filter((e) => e.type === 'session.started')).toHaveLength(1);
    expect(h.events.filter((e) => e.type === 'request.created')).toHaveLength(0);
  });

  it('times out a wait after timeoutMs without sleeping, and keeps the request queued', async () => {
    const a = h.hello();
    let answer: unknown;
    void Promise.resolve(h.engine.request(a, req({ timeoutMs: 60_000 }))).then((r) => (answer = r));
    h.clock.advance(59_999);
    await flush();
    expect(answer).toBeUndefined();
    h.clock.advance(1);
    await flush();
    expect(answer).toMatchObject({ status: 'timed_out' });
    expect(h.store.listOpenRequests().map((r) => r.status)).toEqual(['timed_out']);
  });

  it('uses the default timeout from settings', async () => {
    const a = h.hello();
    h.engine.admin.call('settings.set', { key: 'requests.defaultTimeoutMs', value: 5000 });
    let answer: { status?: string } = {};
    void Promise.resolve(h.engine.request(a, req())).then((r) => (answer = r));
    h.clock.advance(5000);
    await flush();
    expect(answer.status).toBe('timed_out');
  });

  it('makes a late approval a one-time grant for exactly that action', async () => {
    const a = h.hello();
    const p = h.engine.request(a, req({ target: 'origin', timeoutMs: 10 }));
    h.clock.advance(10);
    await flush();
    expect((await p).status).toBe('timed_out');
    const [timedOut] = h.store.listOpenRequests();
    h.engine.admin.call('decide', {
      requestId: timedOut!.requestId,
      decision: 'approve',
      scope: 'once',
    });
    await h.work.durable();
    expect(h.notifications.at(-1)).toMatchObject({
      method: 'decision',
      params: { status: 'approved', decidedBy: 'human' },
    });
    expect(await h.engine.request(a, req({ target: 'upstream', wait: false }))).toMatchObject({
      status: 'queued',
    });
    expect(await h.engine.request(a, req({ target: 'origin', wait: false }))).toMatchObject({
      status: 'approved',
      decidedBy: 'grant',
    });
    expect(await h.engine.request(a, req({ target: 'origin', wait: false }))).toMatchObject({
      status: 'queued',
    });
  });

  it('a waiting agent gets the answer in its call, not also as a notification', async () => {
    const a = h.hello();
    const p = h.engine.request(a, req());
    const [open] = h.store.listOpenRequests();
    h.engine.admin.call('decide', {
      requestId: open!.requestId,
      decision: 'deny',
      scope: 'once',
      reason: 'no',
    });
    expect(await p).toMatchObject({ status: 'denied', reason: 'no', decidedBy: 'human' });
    expect(h.notifications.filter((n) => n.method === 'decision')).toHaveLength(0);
  });

  it('scopes: session grants stay in the session, always becomes a rule, envelopes end on uses and minutes', async () => {
    const a = h.hello('agent-a');
    const b = h.hello('agent-a');
    const q1 = await h.engine.request(a, req({ wait: false, action: 'install_package' }));
    h.engine.admin.call('decide', {
      requestId: q1.requestId,
      decision: 'approve',
      scope: 'session',
    });
    expect(
      await h.engine.request(a, req({ wait: false, action: 'install_package' })),
    ).toMatchObject({ decidedBy: 'grant' });
    expect(
      await h.engine.request(b, req({ wait: false, action: 'install_package' })),
    ).toMatchObject({ status: 'queued' });

    const q2 = await h.engine.request(a, req({ wait: false, action: 'create_issue' }));
    h.engine.admin.call('decide', {
      requestId: q2.requestId,
      decision: 'approve',
      scope: 'always',
    });
    expect(h.engine.admin.call('rules.list', {}).rules).toMatchObject([
      { action: 'create_issue', tier: 'auto', source: 'decision' },
    ]);
    expect(await h.engine.request(b, req({ wait: false, action: 'create_issue' }))).toMatchObject({
      decidedBy: 'rule',
    });

    const q3 = await h.engine.request(a, req({ wait: false, action: 'deploy' }));
    h.engine.admin.call('decide', {
      requestId: q3.requestId,
      decision: 'approve',
      scope: 'once',
      envelope: { minutes: 10, uses: 2 },
    });
    expect(await h.engine.request(b, req({ wait: false, action: 'deploy' }))).toMatchObject({
      decidedBy: 'grant',
    });
    h.clock.advance(10 * 60_000);
    expect(await h.engine.request(b, req({ wait: false, action: 'deploy' }))).toMatchObject({
      status: 'queued',
    });
  });

  it('dedupes by dedupeKey within a session while pending', async () => {
    const a = h.hello();
    const x = await h.engine.request(a, req({ wait: false, dedupeKey: 'k' }));
    const y = await h.engine.request(a, req({ wait: false, dedupeKey: 'k' }));
    expect(y.requestId).toBe(x.requestId);
    h.engine.admin.call('decide', { requestId: x.requestId, decision: 'deny', scope: 'once' });
    const z = await h.engine.request(a, req({ wait: false, dedupeKey: 'k' }));
    expect(z.requestId).not.toBe(x.requestId);
  });

  it('await answers pending after its own timeout without expiring the request', async () => {
    const a = h.hello();
    const q = await h.engine.request(a, req({ wait: false }));
    let answer: { status?: string } = {};
    void Promise.resolve(h.engine.await(a, { requestId: q.requestId, timeoutMs: 1000 })).then(
      (r) => (answer = r),
    );
    h.clock.advance(1000);
    await flush();
    expect(answer.status).toBe('pending');
    expect(h.store.getRequest(q.requestId)!.status).toBe('pending');
  });

  it('refuses a second decision and unknown ids with clear errors', async () => {
    const a = h.hello();
    const q = await h.engine.request(a, req({ wait: false }));
    h.engine.admin.call('decide', { requestId: q.requestId, decision: 'approve', scope: 'once' });
    expect(() =>
      h.engine.admin.call('decide', { requestId: q.requestId, decision: 'deny', scope: 'once' }),
    ).toThrow(/already approved/);
    expect(() =>
      h.engine.admin.call('decide', { requestId: 'req-x', decision: 'deny', scope: 'once' }),
    ).toThrow(/not found/);
  });

  it('after a restart, re-arms timeouts and closes sessions whose agents never came back', async () => {
    const a = h.hello();
    void h.engine.request(a, req({ timeoutMs: 30_000 }));
    h.restart();
    h.clock.advance(30_000);
    expect(h.store.listOpenRequests().map((r) => r.status)).toEqual(['timed_out']);
    h.clock.advance(h.settings.get().sessions.graceMs);
    expect(h.store.getSession(a.sessionId)?.status).toBe('abandoned');
  });

  it('records every change in the audit log in the same transaction', async () => {
    const a = h.hello();
    const q = await h.engine.request(a, req({ wait: false }));
    h.engine.admin.call('decide', { requestId: q.requestId, decision: 'approve', scope: 'once' });
    const types = h.store.queryAudit({ limit: 50 }).map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['session.started', 'request.filed', 'request.approved']),
    );
  });

  it('pause refuses requests with -32003 and notifies the agent', async () => {
    const a = h.hello('agent-p');
    h.engine.admin.call('pause', { agent: 'agent-p', reason: 'wait' });
    expect(() => h.engine.request(a, req())).toThrow(expect.objectContaining({ code: -32003 }));
    await h.work.durable();
    expect(h.notifications.at(-1)).toMatchObject({
      to: 'agent-p',
      method: 'control',
      params: { state: 'paused', reason: 'wait' },
    });
    h.engine.admin.call('resume', {});
    expect(await h.engine.request(a, req({ wait: false }))).toMatchObject({ status: 'queued' });
  });
});
