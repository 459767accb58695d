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

/** How many waiting requests were asked by agents that will not act on an answer now. */
export interface AgentsAwayCounts {
  paused: number;
  killed: number;
  gone: number;
}

/**
 * {@link AgentsAwayCounts} in words, for the tray's hover text and `gatehouse status`:
 * "2 from gone agents, 1 from a paused agent". Empty when there are none.
 */
export const agentsAwayText = (counts: AgentsAwayCounts): string =>
  (['gone', 'paused', 'killed'] as const)
    .filter((why) => counts[why] > 0)
    .map((why) => `${counts[why]} from ${counts[why] === 1 ? `a ${why} agent` : `${why} agents`}`)
    .join(', ');
