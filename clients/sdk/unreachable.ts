import type { AgentResult } from '../../shared/protocol/method-map';
import { stoppedCheckResult, type StopReason } from '../../shared/protocol/stopped-check';
import { decidedByOf } from '../../shared/provenance';
import { ConnectionError, RpcError } from './rpc-client';

/** -32003: a human paused or killed this agent (docs/protocol.md, Errors). */
const AGENT_STOPPED = -32003;

/**
 * `AGENT_PAUSED` or `AGENT_KILLED` when Gatehouse refused the call because a human stopped
 * this agent; undefined for any other failure.
 */
export function stoppedReason(error: unknown): StopReason | undefined {
  if (!(error instanceof RpcError) || error.code !== AGENT_STOPPED) return undefined;
  const data = error.data as { reason?: unknown } | undefined;
  if (data?.reason === 'AGENT_KILLED' || /\bis killed\b/.test(error.message)) return 'AGENT_KILLED';
  return 'AGENT_PAUSED';
}

/** The not-approved answer an agent acts on when permission could not be obtained. */
export function failClosed(error: unknown): AgentResult<'request'> {
  const stopped = stoppedReason(error);
  const reason =
    error instanceof ConnectionError
      ? `GATEHOUSE_UNREACHABLE: ${error.message}; not approved`
      : stopped && error instanceof RpcError
        ? `${stopped}: ${error.message}; not approved`
        : error instanceof RpcError
          ? `GATEHOUSE_ERROR ${error.code}: ${error.message}; not approved`
          : `GATEHOUSE_ERROR: ${error instanceof Error ? error.message : String(error)}; not approved`;
  return { requestId: '', status: 'denied', decidedBy: decidedByOf({ kind: 'system' }), reason };
}

/** `classify` for a stopped agent: it asks, so nothing runs while a human holds it. */
export function stoppedClassification(error: RpcError): AgentResult<'classify'> {
  return { tier: 'ask', rule: 'sdk:stopped', reason: error.message };
}

/** `check` for a stopped agent (a daemon that answered -32003): stop, with the reason. */
export function stoppedCheck(error: RpcError, reason: StopReason): AgentResult<'check'> {
  return stoppedCheckResult(reason, error.message);
}

const START_HINT = 'start Gatehouse (`gatehouse daemon` or `npm start`) and try again';

/** `classify` without Gatehouse: everything asks, so nothing runs on a guess. */
export function unreachableClassification(error: ConnectionError): AgentResult<'classify'> {
  return {
    tier: 'ask',
    rule: 'sdk:unreachable',
    reason: `Gatehouse cannot be reached (${error.message}); treat this action as not approved`,
  };
}

/** `check` without Gatehouse: stop, with the reason and what to do. */
export function unreachableCheck(error: ConnectionError): AgentResult<'check'> {
  return {
    allowed: false,
    mode: 'normal',
    verdicts: [
      {
        breaker: 'gatehouse',
        state: 'open',
        tripped: true,
        warning: false,
        reason: 'GATEHOUSE_UNREACHABLE',
        current: 1,
        threshold: 1,
        suggestion: `${error.message}; ${START_HINT}`,
      },
    ],
  };
}

/** `end` without Gatehouse: a local summary that says the end was not recorded. */
export function unrecordedEnd(
  sessionId: string | undefined,
  startedAt: string,
  endedAt: string,
  error: ConnectionError,
): AgentResult<'end'> {
  return {
    summary: {
      sessionId: sessionId ?? '',
      startedAt,
      endedAt,
      done: [],
      needsReview: [],
      costUsd: 0,
      text: `Gatehouse could not be reached (${error.message}); this session's end was not recorded.`,
    },
  };
}
