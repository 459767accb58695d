import type { RequestRecord } from './domain';

/**
 * Why the agent behind a request will not act on an answer now, in one word for every view
 * (CLI, dashboard, tray, phone page): `killed` or `paused` by a human, or `gone` (no
 * connection of its session is open). Undefined when it is running and connected, or when
 * the record carries no live facts (an event's copy).
 */
export function agentPresence(
  r: Pick<RequestRecord, 'agentState' | 'agentConnected'>,
): 'killed' | 'paused' | 'gone' | undefined {
  if (r.agentState === 'killed' || r.agentState === 'paused') return r.agentState;
  if (r.agentConnected === false) return 'gone';
  return undefined;
}

/** Which requests a view shows by their agent's connection: `gone` has no connection open. */
export type ConnectionFilter = 'all' | 'connected' | 'gone';

/** Whether a request passes a {@link ConnectionFilter}; unknown counts as connected. */
export const passesConnectionFilter = (
  r: Pick<RequestRecord, 'agentConnected'>,
  filter: ConnectionFilter,
): boolean => filter === 'all' || (r.agentConnected === false) === (filter === 'gone');
