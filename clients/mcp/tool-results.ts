import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Verdict } from '../../shared/domain';
import type { RequestAnswer } from '../sdk/client';
import { ConnectionError, RpcError } from '../sdk/rpc-client';

/** A tool result: the one line an LLM reads, and the same facts as structured content. */
export function ok(text: string, data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: data };
}

/** An error result (`isError`), with structured content only where the tool's schema allows it. */
export function fail(text: string, data?: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text }],
    isError: true,
    structuredContent: data,
  };
}

/** Why a call failed, in words for an LLM. */
export function failure(error: unknown): string {
  if (error instanceof ConnectionError)
    return `Gatehouse is not reachable (${error.message}). Start it with \`gatehouse daemon\` or the desktop app.`;
  if (error instanceof RpcError)
    return `Gatehouse refused the call (${error.code}): ${error.message}`;
  return `Gatehouse call failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** The structured shape of a permission answer (request_permission, get_decision). */
export function permissionData(action: string, a: RequestAnswer): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries({
      approved: a.status === 'approved',
      status: a.status,
      action,
      request_id: a.requestId,
      decided_by: a.decidedBy,
      message: a.message,
      reason: a.reason,
      conditions: a.conditions,
    }).filter(([, v]) => v !== undefined && v !== ''),
  );
}

/** The line an LLM reads for a permission answer: what happened and what to do now. */
export function permissionText(action: string, a: RequestAnswer, waitedSeconds?: number): string {
  const id = a.requestId ? ` (request ${a.requestId})` : '';
  switch (a.status) {
    case 'approved': {
      const extra = [
        a.message,
        a.conditions?.length ? `Conditions: ${a.conditions.join('; ')}` : '',
      ]
        .filter(Boolean)
        .join('. ');
      return `APPROVED: you may ${action}${id}, decided by ${a.decidedBy ?? 'a human'}.${extra ? ` ${extra}` : ''}`;
    }
    case 'denied':
      return `DENIED: do not ${action}${id}. Reason: ${a.reason ?? 'none given'}. Choose another approach or report this to the user.`;
    case 'timed_out':
      return `NO DECISION YET: nobody decided on ${action}${id} within ${waitedSeconds ?? '?'} s. Do NOT do it now. The request stays in the review queue: continue with other work, then call get_decision with request_id ${a.requestId}.`;
    case 'queued':
    case 'pending':
      return `WAITING FOR A HUMAN: ${action}${id} is in the review queue. Do NOT do it yet; continue with other work and call get_decision with request_id ${a.requestId} later.`;
    case 'cancelled':
      return `CANCELLED: the request for ${action}${id} was withdrawn. Do not do it.`;
  }
}

/** A short account of warnings and trips, for the one-line texts. */
export function verdictText(verdicts: Verdict[]): string {
  return verdicts
    .filter((v) => v.tripped || v.warning)
    .map(
      (v) =>
        `${v.tripped ? 'TRIPPED' : 'warning'} ${v.breaker}${v.reason ? ` ${v.reason}` : ''} (${v.current}/${v.threshold})${v.suggestion ? `: ${v.suggestion}` : ''}`,
    )
    .join('; ');
}
