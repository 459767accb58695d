import type { PendingAgentsAway } from '../../../shared/protocol/admin-methods';
import { ALL as ALL_AGENTS, type AgentControls } from '../controls/controls';
import type { ControlsStore } from '../controls/controls-store';
import type { SessionService } from '../sessions/sessions';
import type { SessionRowsStore } from '../sessions/sessions-store';
import type { RequestRowsStore } from './requests-store';

/** What the engine knows for `status` (the process facts are the transport's to add). */
export interface EngineStatus {
  pending: number;
  timedOut: number;
  activeSessions: number;
  agents: number;
  paused: boolean;
  /** Waiting requests whose agents will not act on an answer now; absent when none. */
  pendingAgentsAway?: PendingAgentsAway;
}

export interface QueueStatusDeps {
  requests: Pick<RequestRowsStore, 'countWaiting' | 'countWaitingForAgent' | 'countOpenRequests'>;
  sessionRows: Pick<SessionRowsStore, 'countActiveSessions' | 'getSession'>;
  controlRows: Pick<ControlsStore, 'listControls'>;
  controls: Pick<AgentControls, 'stateOf' | 'allPaused'>;
  sessions: Pick<SessionService, 'connectedSessionIds'>;
}

/** The queue and the sessions in figures: counted through indexes, never read. */
export function queueStatus(d: QueueStatusDeps): EngineStatus {
  // Counted through indexes, never read: status costs the same with any history.
  const active = d.sessionRows.countActiveSessions();
  const { waiting, timedOut } = d.requests.countWaiting();
  const away = waiting > 0 ? pendingAgentsAway(d, waiting) : undefined;
  return {
    pending: waiting,
    timedOut,
    ...(away ? { pendingAgentsAway: away } : {}),
    activeSessions: active.sessions,
    agents: active.agents,
    paused: d.controls.allPaused(),
  };
}

/**
 * `waiting` requests by why their agent will not act now (agentPresence), undefined if none.
 * Counted without reading the queue: the requests of paused or killed agents (rare) by agent,
 * those of connected sessions of running agents by session (indexed, as filing counts them);
 * the rest are gone.
 */
function pendingAgentsAway(d: QueueStatusDeps, waiting: number): PendingAgentsAway | undefined {
  const away = { paused: 0, killed: 0, gone: 0 };
  const everyone = d.controls.stateOf(ALL_AGENTS);
  if (everyone !== 'running') away[everyone] = waiting;
  else {
    const held = new Set<string>();
    for (const c of d.controlRows.listControls()) {
      const state = d.controls.stateOf(c.agent);
      if (state === 'running') continue;
      held.add(c.agent);
      away[state] += d.requests.countWaitingForAgent(c.agent);
    }
    let connected = 0;
    for (const id of d.sessions.connectedSessionIds()) {
      const agent = d.sessionRows.getSession(id)?.agent;
      if (agent !== undefined && !held.has(agent)) connected += d.requests.countOpenRequests(id);
    }
    away.gone = waiting - away.paused - away.killed - connected;
  }
  return away.paused + away.killed + away.gone > 0 ? away : undefined;
}
