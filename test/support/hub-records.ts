import type { RequestRecord } from '../../shared/domain';

/**
 * A shell request, waiting, as a machine publishes it to the hub: filed at `at` by
 * claude-code in session s1, asking by the default rule; `over` changes any field.
 */
export function shellRequest(
  id: string,
  at: number,
  over: Partial<RequestRecord> = {},
): RequestRecord {
  return {
    requestId: id,
    sessionId: 's1',
    agent: 'claude-code',
    action: 'shell',
    description: `run ${id}`,
    urgency: 'normal',
    status: 'pending',
    tier: 'ask',
    rule: 'default:shell',
    ruleReason: 'asks',
    createdAt: new Date(at).toISOString(),
    ...over,
  };
}
