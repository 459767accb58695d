import type { RequestRecord } from '../../shared/domain';

/**
 * The closing line of a decided request's chat message: who decided, how, when. `presser` is
 * the app user whose press decided it, when it was decided in that app.
 */
export function decidedLine(r: RequestRecord, presser: string | undefined): string {
  const how =
    r.status === 'approved'
      ? `✅ Approved${r.scope === 'session' ? ' for this session' : ''}`
      : r.status === 'denied'
        ? '❌ Denied'
        : `Closed (${r.status.replace('_', ' ')})`;
  const who = presser ?? (r.decidedBy === 'human' ? 'a person' : (r.decidedBy ?? 'Gatehouse'));
  const via = r.decidedVia ? ` via ${r.decidedVia}` : '';
  return `${how} by ${who}${via} at ${r.decidedAt ?? new Date().toISOString()}`;
}
