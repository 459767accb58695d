import type { AgentState } from './domain';

/**
 * What an agent is doing, as a person reads it: held (paused, killed) comes from the kill
 * switch; otherwise its sessions say it. `running` only while it is connected; `disconnected`
 * while a session is still open without a connection (it may come back within the grace
 * period); `idle` when none of its sessions is active — an agent seen last week is not
 * running.
 */
export type AgentActivity = 'running' | 'paused' | 'killed' | 'disconnected' | 'idle';

export function agentActivity(
  a: Pick<AgentState, 'state' | 'sessions' | 'connections'>,
): AgentActivity {
  if (a.state !== 'running') return a.state;
  if (a.connections > 0) return 'running';
  return a.sessions > 0 ? 'disconnected' : 'idle';
}
