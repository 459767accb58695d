import type { AgentResult } from './method-map';

/** Why a human stopped an agent, as `check` and -32003's `data.reason` name it. */
export type StopReason = 'AGENT_PAUSED' | 'AGENT_KILLED';

/**
 * The `check` result for an agent a human paused or killed: not allowed, the kill switch
 * open. The daemon answers it, and the SDK makes the same from a -32003, so an agent reads one
 * shape either way.
 */
export function stoppedCheckResult(reason: StopReason, suggestion: string): AgentResult<'check'> {
  return {
    allowed: false,
    mode: 'paused',
    verdicts: [
      {
        breaker: 'kill_switch',
        state: 'open',
        tripped: true,
        warning: false,
        reason,
        current: 1,
        threshold: 1,
        suggestion,
      },
    ],
  };
}
