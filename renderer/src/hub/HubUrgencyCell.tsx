import type { RequestRecord } from '../../../shared/domain';
import { inferUrgency } from '../../../shared/request-picture/inferred-urgency';

/**
 * A team request's urgency as the hub ranks it: the one Gatehouse infers (a production
 * target, a force push, an agent blocked for long …), as on the machine's own queue, with its
 * reasons in the title; else the agent's own.
 */
export function HubUrgencyCell({ record, now }: { record: RequestRecord; now: number }) {
  const inferred = inferUrgency(record, now);
  const urgency = inferred?.urgency ?? record.urgency;
  return (
    <td
      className={`urgency urgency-${urgency}`}
      data-testid="hub-urgency"
      {...(inferred ? { title: `Inferred: ${inferred.reasons.join('; ')}` } : {})}
    >
      {inferred ? `${urgency} (inferred)` : urgency}
    </td>
  );
}
