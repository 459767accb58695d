import { iso } from '../../../shared/clock';
import type { AdminHandlers } from '../kernel/admin-handlers';
import type { SessionService } from '../sessions/sessions';
import type { SessionRowsStore } from '../sessions/sessions-store';
import { ALL, type AgentControls } from './controls';
import type { ControlsStore } from './controls-store';

export interface ControlsAdminDeps {
  store: Pick<ControlsStore, 'listControls' | 'tallySessionsByAgent'>;
  sessionRows: Pick<SessionRowsStore, 'getSession'>;
  controls: AgentControls;
  sessions: Pick<SessionService, 'connectedSessionIds' | 'connectionCount'>;
}

/** The kill switch's admin methods: pause, resume or kill agents, and the list of agents. */
export function controlsAdmin(d: ControlsAdminDeps) {
  /** Pauses, resumes or kills one agent (`agent`) or all of them. */
  const control = (
    state: 'paused' | 'resumed' | 'killed',
    p: { agent?: string | undefined; reason?: string | undefined },
  ) => {
    d.controls.set(p.agent, state, p.reason);
    return { agents: p.agent ? [p.agent] : [ALL], state };
  };
  return {
    pause: (p) => control('paused', p),
    resume: (p) => control('resumed', p),
    kill: (p) => control('killed', p),
    /**
     * Every agent with a session or a control, its state and its open sessions: the sessions
     * are counted in SQL, every one of them, and the connections are the open ones in memory.
     */
    'agents.list': () => {
      const connections = new Map<string, number>();
      for (const id of d.sessions.connectedSessionIds()) {
        const agent = d.sessionRows.getSession(id)?.agent;
        if (agent === undefined) continue;
        connections.set(agent, (connections.get(agent) ?? 0) + d.sessions.connectionCount(id));
      }
      const tally = d.store.tallySessionsByAgent();
      const listed = new Set(tally.map((t) => t.agent));
      const agents = tally.map((t) => ({
        agent: t.agent,
        state: d.controls.stateOf(t.agent),
        sessions: t.activeSessions,
        connections: connections.get(t.agent) ?? 0,
        ...(t.lastSeenAt ? { lastSeenAt: iso(t.lastSeenAt) } : {}),
      }));
      // An agent paused or killed before it ever connected is listed too: it is held.
      for (const c of d.store.listControls())
        if (c.agent !== ALL && !listed.has(c.agent))
          agents.push({
            agent: c.agent,
            state: d.controls.stateOf(c.agent),
            sessions: 0,
            connections: 0,
          });
      return { agents };
    },
  } satisfies AdminHandlers<'pause' | 'resume' | 'kill' | 'agents.list'>;
}
