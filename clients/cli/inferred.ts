import type { RequestRecord } from '../../shared/domain';
import { inferUrgency, type InferredUrgency } from '../../shared/request-picture/inferred-urgency';
import type { QueueClient } from './commands/hub-queue-client';

/**
 * The urgency Gatehouse infers for a request, unless the person turned that off
 * (`requests.inferUrgency`); only asked of the daemon when there could be one.
 */
export async function inferredFor(
  c: Pick<QueueClient, 'call'>,
  r: RequestRecord,
): Promise<InferredUrgency | undefined> {
  const inferred = inferUrgency(r, Date.now());
  if (!inferred) return undefined;
  const { value } = await c.call('settings.get', { key: 'requests.inferUrgency' });
  return value === false ? undefined : inferred;
}
