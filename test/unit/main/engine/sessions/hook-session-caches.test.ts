import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentCaller } from '../../../../../main/engine/engine';
import type { GatehouseEvent } from '../../../../../shared/events';
import { ErrorCode } from '../../../../../shared/protocol/errors';
import { EngineHarness } from '../../../../support/engine-harness';

/**
 * A command hook connects, says hello with its session key, makes one call and leaves, on
 * every tool call. The session service answers that from memory (the session found by its
 * key, the row read on disconnect, whether requests wait, one grace timer): what changes
 * between two such calls must still be seen by the second.
 */
describe("a hook's calls and what changed between them", () => {
  let h: EngineHarness;
  beforeEach(() => (h = new EngineHarness()));
  afterEach(() => h.close());

  /** One tool call of a command hook: hello, then its connection closes. */
  const hookCall = (agent: string, sessionKey: string): AgentCaller => {
    const c = h.hello(agent, { sessionKey, project: '/p' });
    h.engine.detach(c.sessionId);
    return c;
  };
  const sessionAudit = (sessionId: string) =>
    h.store
      .queryAudit({ sessionId, limit: 1000 })
      .map((e) => e.type)
      .filter((t) => t.startsWith('session.'))
      // Newest first as queried: oldest first here.
      .reverse();
  const connectionEvents = (sessionId: string) =>
    h.events.filter(
      (e): e is Extract<GatehouseEvent, { type: 'session.connection' }> =>
        e.type === 'session.connection' && e.sessionId === sessionId,
    );

  const read = {
    action: 'read_file',
    paths: ['/p/a.ts'],
    description: 'read a.ts',
    urgency: 'normal' as const,
    wait: false,
  };

  it('resumes a session that ended between two calls, not the active row it had', async () => {
    const first = hookCall('hooked', 'k1');
    hookCall('hooked', 'k1');
    h.engine.end(first, { status: 'completed' });
    await h.work.durable();
    const second = hookCall('hooked', 'k1');
    await h.work.durable();
    expect(second.sessionId).toBe(first.sessionId);
    expect(h.store.getSession(first.sessionId)!.status).toBe('active');
    expect(sessionAudit(first.sessionId)).toEqual([
      'session.started',
      'session.ended',
      'session.resumed',
    ]);
    // The next call goes on with the resumed session: nothing more is recorded.
    hookCall('hooked', 'k1');
    await h.work.durable();
    expect(sessionAudit(first.sessionId)).toHaveLength(3);
  });

  it('starts a new session when the ended one was pruned between two calls', async () => {
    const first = hookCall('hooked', 'k2');
    h.engine.end(first, { status: 'completed' });
    await h.work.durable();
    // What retention does to an ended session old enough (retention-store.ts).
    h.db
      .prepare(`DELETE FROM sessions WHERE session_id = ? AND status <> 'active'`)
      .run(first.sessionId);
    const second = hookCall('hooked', 'k2');
    await h.work.durable();
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(h.store.getSession(second.sessionId)).toMatchObject({
      status: 'active',
      sessionKey: 'k2',
    });
    expect(sessionAudit(second.sessionId)).toEqual(['session.started']);
  });

  it('refuses the next call of an agent killed between two calls', async () => {
    const before = hookCall('hooked', 'k3');
    expect(h.engine.request(before, read)).toMatchObject({
      status: 'approved',
    });
    await h.work.durable();
    await h.engine.admin.call('kill', { agent: 'hooked', reason: 'stop' });
    const after = h.hello('hooked', { sessionKey: 'k3', project: '/p' });
    expect(after.sessionId).toBe(before.sessionId);
    expect(h.engine.controlNotice('hooked')).toEqual({ state: 'killed', reason: 'stop' });
    expect(() => h.engine.request(after, read)).toThrow(
      expect.objectContaining({ code: ErrorCode.AgentPaused }),
    );
  });

  it('says a session with a request waiting is gone when its hook leaves, also after a restart, and stops once it is decided', async () => {
    const c = h.hello('asker', { sessionKey: 'k4', project: '/p' });
    const quiet = hookCall('quiet', 'q1');
    const filed = h.engine.request(c, { ...read, action: 'deploy', description: 'deploy' });
    expect(filed).toMatchObject({ status: 'queued' });
    // Its disconnect in the same turn as the filing, before the commit, already counts it.
    h.engine.detach(c.sessionId);
    await h.work.durable();
    expect(connectionEvents(c.sessionId).map((e) => e.connected)).toEqual([false]);

    h.restart();
    hookCall('asker', 'k4');
    hookCall('quiet', 'q1');
    expect(connectionEvents(c.sessionId).map((e) => e.connected)).toEqual([false, false]);

    const { requestId } = filed as { requestId: string };
    await h.engine.admin.call('decide', { requestId, decision: 'approve', scope: 'once' });
    hookCall('asker', 'k4');
    await h.work.durable();
    // Back (it was said to be gone), then gone with nothing waiting: not said.
    expect(connectionEvents(c.sessionId).map((e) => e.connected)).toEqual([false, false, true]);
    expect(connectionEvents(quiet.sessionId)).toEqual([]);
  });

  it('ends an abandoned session a grace period after its last call, whatever calls came before', async () => {
    const grace = h.settings.get().sessions.graceMs;
    const c = hookCall('hooked', 'k5');
    const timers = h.clock.pendingTimers();
    // A call every tenth of the grace period, for twice its length: no new timer each.
    for (let i = 0; i < 20; i++) {
      h.clock.advance(grace / 10);
      hookCall('hooked', 'k5');
      expect(h.clock.pendingTimers()).toBe(timers);
    }
    await h.work.durable();
    // Never ended (and resumed by the next call) on the way.
    expect(sessionAudit(c.sessionId)).toEqual(['session.started']);
    h.clock.advance(grace - 1);
    expect(h.store.getSession(c.sessionId)!.status).toBe('active');
    h.clock.advance(1);
    await h.work.durable();
    expect(h.store.getSession(c.sessionId)!.status).toBe('abandoned');
  });

  it('keeps a session whose agent is connected past the grace period, and ends it after it leaves', async () => {
    const grace = h.settings.get().sessions.graceMs;
    const c = hookCall('hooked', 'k6');
    h.clock.advance(grace / 2);
    h.hello('hooked', { sessionKey: 'k6', project: '/p' });
    h.clock.advance(grace * 3);
    expect(h.store.getSession(c.sessionId)!.status).toBe('active');
    h.engine.detach(c.sessionId);
    h.clock.advance(grace - 1);
    expect(h.store.getSession(c.sessionId)!.status).toBe('active');
    h.clock.advance(1);
    await h.work.durable();
    expect(h.store.getSession(c.sessionId)!.status).toBe('abandoned');
  });

  it('ends the session at a grace period shortened meanwhile', async () => {
    const grace = h.settings.get().sessions.graceMs;
    const c = hookCall('hooked', 'k7');
    h.settings.set('sessions.graceMs', grace / 4);
    hookCall('hooked', 'k7');
    h.clock.advance(grace / 4);
    await h.work.durable();
    expect(h.store.getSession(c.sessionId)!.status).toBe('abandoned');
  });
});
