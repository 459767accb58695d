import type { AgentResult } from '../../shared/protocol/method-map';
import { ConnectionError, RpcError } from './rpc-client';

/** The not-approved answer an agent acts on when permission could not be obtained. */
export function failClosed(error: unknown): AgentResult<'request'> {
  const reason =
    error instanceof ConnectionError
      ? `GATEHOUSE_UNREACHABLE: ${error.message}; not approved`
      : error instanceof RpcError
        ? `GATEHOUSE_ERROR ${error.code}: ${error.message}; not approved`
        : `GATEHOUSE_ERROR: ${error instanceof Error ? error.message : String(error)}; not approved`;
  return { requestId: '', status: 'denied', decidedBy: 'system', reason };
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
