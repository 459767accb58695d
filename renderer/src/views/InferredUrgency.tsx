import type { RequestRecord } from '../../../shared/domain';
import { inferUrgency } from '../../../shared/request-picture/inferred-urgency';
import { useApi } from '../api-context';
import { useLiveQuery } from '../state/use-query';

/**
 * The urgency Gatehouse infers for a request the agent gave none (a production target, a
 * force push, an agent blocked for long, …), with its reasons; absent when the person turned
 * inference off (`requests.inferUrgency`) or nothing applies.
 */
export function InferredUrgencyTag({ request, now }: { request: RequestRecord; now: number }) {
  const api = useApi();
  const settings = useLiveQuery(
    () => api.getSettings(),
    [api],
    (e) => e.type === 'settings.changed',
  );
  const requests = (settings.data?.settings.requests ?? {}) as Record<string, unknown>;
  const inferred = inferUrgency(request, now);
  if (!inferred || !settings.data || requests.inferUrgency === false) return null;
  return (
    <span
      className={`urgency urgency-${inferred.urgency}`}
      data-testid="detail-inferred-urgency"
      title="Inferred by Gatehouse; turn off with the setting requests.inferUrgency"
    >
      inferred {inferred.urgency}: {inferred.reasons.join('; ')}
    </span>
  );
}
