import type { RequestRecord } from '../../shared/domain';
import { inferUrgency, type InferredUrgency } from '../../shared/request-picture/inferred-urgency';
import type { AdminClient } from './admin-client';

/**
 * The urgency Gatehouse infers for a request, unless the person turned that off
 * (`requests.inferUrgency`); only asked of the daemon when there could be one.
 */
export async function inferredFor(
  c: AdminClient,
  r: RequestRecord,
): Promise<InferredUrgency | undefined> {
  const inferred = inferUrgency(r, Date.now());
  if (!inferred) return undefined;
  const { value } = await c.call('settings.get', { key: 'requests.inferUrgency' });
  return value === false ? undefined : inferred;
}
