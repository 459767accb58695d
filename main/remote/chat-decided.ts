import type { RequestRecord } from '../../shared/domain';

/**
 * The closing line of a decided request's chat message, the same in every app: who decided,
 * how, through which surface and when. `presser` is the app user when the press decided.
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
