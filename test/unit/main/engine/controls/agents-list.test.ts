import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineHarness } from '../../../../support/engine-harness';

/** More sessions than `agents.list` used to read (it capped at the newest 5,000). */
const BUSY_SESSIONS = 5_001;

describe('agents.list', () => {
  let h: EngineHarness;
  beforeEach(() => {
    h = new EngineHarness();
  });
  afterEach(() => h.close());

  it('counts every session in SQL: an agent seen only before the newest 5,000 sessions is listed, with its active ones', () => {
    const start = h.clock.now() - 10 * 86_400_000;
    const insert = h.db.prepare(
      `INSERT INTO sessions (session_id, agent, status, started_at, ended_at, last_seen_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    h.db.transaction(() => {
      // The oldest session of all: an agent still at work since before the busy one began.
      insert.run('ses-quiet', 'quiet-agent', 'active', start, null, start + 5_000);
      // The busy agent's two oldest sessions are still active; the rest ended.
      for (let i = 0; i < BUSY_SESSIONS; i++) {
        const at = start + 1_000 + i * 60_000;
        const active = i < 2;
        insert.run(
          `ses-busy-${String(i).padStart(5, '0')}`,
          'busy-agent',
          active ? 'active' : 'completed',
          at,
          active ? null : at + 30_000,
          at + 10_000,
        );
      }
    })();
    const lastBusy = start + 1_000 + (BUSY_SESSIONS - 1) * 60_000;

    // A live connection counts for its agent, whichever session it is.
    const live = h.hello('busy-agent');

    const { agents } = h.engine.admin.call('agents.list', {});
    expect(agents).toEqual([
      {
        agent: 'busy-agent',
        state: 'running',
        sessions: 3,
        connections: 1,
        lastSeenAt: new Date(Math.max(lastBusy + 30_000, h.clock.now())).toISOString(),
      },
      {
        agent: 'quiet-agent',
        state: 'running',
        sessions: 1,
        connections: 0,
        lastSeenAt: new Date(start + 5_000).toISOString(),
      },
    ]);
    expect(h.store.getSession(live.sessionId)?.agent).toBe('busy-agent');
  });

  it('lists an agent paused before it ever connected, after those with sessions', () => {
    h.hello('agent-a');
    h.engine.admin.call('pause', { agent: 'never-seen', reason: 'not yet' });
    expect(h.engine.admin.call('agents.list', {}).agents).toEqual([
      expect.objectContaining({ agent: 'agent-a', state: 'running', sessions: 1, connections: 1 }),
      { agent: 'never-seen', state: 'paused', sessions: 0, connections: 0 },
    ]);
  });
});
