import { URGENCY_ORDER } from '../../../shared/domain';
import { attentionRank } from '../../../shared/queue-order';

/**
 * The urgency a hub row (`r`) is ranked by at `now` (a query parameter such as `$5`), in SQL:
 * what the machine's queue infers (shared/queue-order.ts `urgencyTimeline`, kept in two
 * columns at each publish); a row from before those columns, by the agent's own urgency.
 */
export const rankedUrgencySql = (now: string): string =>
  `COALESCE(CASE WHEN r.urgency_later_at <= ${now}::bigint THEN r.urgency_later ELSE r.urgency_filed END, r.record->>'urgency')`;

/**
 * The attention rank of a hub row (`r`) at `now`, in SQL, built from the shared
 * {@link attentionRank} (as the machine's store does), so the hub orders the waiting queue as
 * every surface sorts it: a pending request with a deadline has a blocked agent; unknown
 * connection counts as connected; the urgency is the inferred one.
 */
export function attentionRankSql(now: string): string {
  const connected = `COALESCE((r.record->>'agentConnected')::boolean, true)`;
  const band = attentionRank(true, 'low') - attentionRank(false, 'low');
  const connectedPlace = attentionRank(false, 'low', true) - attentionRank(false, 'low', false);
  const urgency = URGENCY_ORDER.map((u) => `WHEN '${u}' THEN ${attentionRank(false, u, false)}`);
  return `(CASE WHEN r.status = 'pending' AND r.record ? 'timeoutAt' AND ${connected} THEN ${band} ELSE 0 END
    + CASE ${rankedUrgencySql(now)} ${urgency.join(' ')} ELSE 0 END
    + CASE WHEN ${connected} THEN ${connectedPlace} ELSE 0 END)`;
}
