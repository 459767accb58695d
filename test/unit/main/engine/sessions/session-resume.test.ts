import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LAST_SEEN_GRAIN_MS } from '../../../../../main/engine/sessions/sessions';
import { EngineHarness } from '../../../../support/engine-harness';

/**
 * An agent hook opens one connection per tool call and says hello to its session each time:
 * the session goes on; it does not resume. Only an ended session coming back, or a session
 * moving to another project, is recorded as resumed.
 */
describe('saying hello to an existing session', () => {
  let h: EngineHarness;
  beforeEach(() => (h = new EngineHarness()));
  afterEach(() => h.close());

  const auditTypes = (sessionId: string) =>
    h.store
      .queryAudit({ sessionId, limit: 1000 })
      .map((e) => e.type)
      .filter((t) => t.startsWith('session.'));
  const transcriptTexts = (sessionId: string) =>
    h.store.listTranscript(sessionId).map((t) => t.text);

  it('records nothing new when an active session is greeted again, and keeps it seen', async () => {
    const first = h.hello('hooked', { sessionKey: 'k1', project: '/p' });
    await h.work.durable();
    const seenAt = h.store.getSession(first.sessionId)!.lastSeenAt;
    for (let i = 0; i < 50; i++) {
      h.clock.advance(1000);
      expect(h.hello('hooked', { sessionKey: 'k1', project: '/p' }).sessionId).toBe(
        first.sessionId,
      );
    }
    await h.work.durable();
    expect(auditTypes(first.sessionId)).toEqual(['session.started']);
    expect(transcriptTexts(first.sessionId)).toEqual(['Session started by hooked in /p']);
    expect(h.store.getSession(first.sessionId)!.lastSeenAt).toBe(seenAt + 50_000);
  });

  it('writes the last-seen time at most once a grain: a burst of tool calls writes nothing each', async () => {
    const first = h.hello('hooked', { sessionKey: 'k4', project: '/p' });
    await h.work.durable();
    const seenAt = h.store.getSession(first.sessionId)!.lastSeenAt;
    for (let i = 0; i < 20; i++) {
      h.clock.advance(LAST_SEEN_GRAIN_MS / 20 - 1);
      h.hello('hooked', { sessionKey: 'k4', project: '/p' });
      // No write, so no batch for the hello's answer to wait for.
      expect(h.db.inTransaction).toBe(false);
    }
    expect(h.store.getSession(first.sessionId)!.lastSeenAt).toBe(seenAt);
    h.clock.advance(20);
    h.hello('hooked', { sessionKey: 'k4', project: '/p' });
    await h.work.durable();
    expect(h.store.getSession(first.sessionId)!.lastSeenAt).toBe(h.clock.now());
    // Another project is a resume, written at once however soon it comes.
    h.hello('hooked', { sessionKey: 'k4', project: '/q' });
    await h.work.durable();
    expect(h.store.getSession(first.sessionId)!.project).toBe('/q');
  });

  it('records a resume when the session had ended', async () => {
    const a = h.hello('hooked', { sessionKey: 'k2' });
    h.engine.end(a, { status: 'completed' });
    await h.work.durable();
    expect(h.store.getSession(a.sessionId)!.status).not.toBe('active');
    expect(h.hello('hooked', { sessionKey: 'k2' }).sessionId).toBe(a.sessionId);
    await h.work.durable();
    expect(h.store.getSession(a.sessionId)!.status).toBe('active');
    expect(auditTypes(a.sessionId)).toContain('session.resumed');
    expect(transcriptTexts(a.sessionId)).toContain('Session resumed');
  });

  it('records a resume when the session moves to another project', async () => {
    const a = h.hello('hooked', { sessionKey: 'k3', project: '/one' });
    h.hello('hooked', { sessionKey: 'k3', project: '/two' });
    await h.work.durable();
    expect(h.store.getSession(a.sessionId)!.project).toBe('/two');
    expect(auditTypes(a.sessionId).filter((t) => t === 'session.resumed')).toHaveLength(1);
  });
});
