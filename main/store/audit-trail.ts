import type { AuditEvent } from '../../shared/domain';
import { iso } from '../../shared/clock';
import { compact } from '../engine/records';
import { idOrdinal } from '../engine/ids';
import type { AuditQuery, Page, RequestRow } from '../engine/store-port';
import { decodeCursor, encodeCursor } from './paging';
import type { AuditRepository } from './audit-repository';
import type { RequestsRepository } from './requests-repository';

const FILED = 'request.filed';

/** What the `request.filed` audit entry of a request records, as it was filed. */
function filedAuditData(r: RequestRow): Record<string, unknown> {
  // decidedBy, when undefined, is left out of the stored JSON.
  return {
    action: r.action,
    tier: r.tier,
    rule: r.rule,
    status: r.status,
    decidedBy: r.decidedBy,
    urgency: r.urgency,
  };
}

/**
 * Saves a new request with its `request.filed` entry. A request settled as it is filed
 * (by policy, a rule, a grant or the ladder) never changes again, so its row is its own entry:
 * it takes the entry's number in the audit sequence, which spares every auto-approved request
 * a second row (see migration 005). A pending request changes later; its entry is an audit row.
 */
export function fileRequest(
  audit: AuditRepository,
  requests: RequestsRepository,
  row: RequestRow,
): void {
  if (row.status !== 'pending') return requests.insert(row, audit.reserveSeq());
  requests.insert(row);
  audit.append({
    at: row.createdAt,
    type: FILED,
    sessionId: row.sessionId,
    agent: row.agent,
    requestId: row.requestId,
    data: filedAuditData(row),
  });
}

/** The `request.filed` entry a request row stands for (see migration 005). */
function filedEntry({ seq, row: r }: { seq: number; row: RequestRow }): AuditEvent {
  return compact({
    seq,
    at: iso(r.createdAt),
    type: FILED,
    sessionId: r.sessionId,
    agent: r.agent,
    requestId: r.requestId,
    data: compact(filedAuditData(r)),
  });
}

/**
 * The audit trail as its readers see it: the audit table's entries together with the
 * requests that are their own `request.filed` entry, in one sequence, newest first.
 */
export function queryAuditTrail(
  audit: AuditRepository,
  requests: RequestsRepository,
  q: AuditQuery,
): AuditEvent[] {
  return pageAuditTrail(audit, requests, q).items;
}

/**
 * Where the next page's request entries start, as a request key (exclusive): entry numbers
 * rise with keys, so the entries after `lastSeq` are the ones below the first fetched entry
 * the page left out, or, when it left none out, below every fetched one.
 */
function requestKeyBound(
  fetched: { seq: number; row: RequestRow }[],
  lastSeq: number,
  previous: number | undefined,
): number {
  const keys = fetched.map((e) => ({ seq: e.seq, key: idOrdinal(e.row.requestId) ?? 0 }));
  const left = keys.find((e) => e.seq < lastSeq);
  if (left) return left.key + 1;
  const oldest = keys.at(-1);
  return oldest ? oldest.key : (previous ?? Number.MIN_SAFE_INTEGER);
}

/**
 * A page of the audit trail, newest first. The cursor is the page's last entry number and a
 * request key below which the requests that are their own entry continue (see
 * RequestsRepository.listAuditEntries), so no page walks the newer requests again.
 */
export function pageAuditTrail(
  audit: AuditRepository,
  requests: RequestsRepository,
  q: AuditQuery & { withTotal?: boolean },
): Page<AuditEvent> {
  const cursor = decodeCursor(q.cursor, 2);
  const before = cursor && { seq: cursor[0] ?? 0, key: cursor[1] };
  const page = { ...q, limit: q.limit + 1 };
  const stored = audit.query(page, before?.seq);
  const withRequests = q.type === undefined || q.type === FILED;
  const entries = withRequests ? requests.listAuditEntries(page, before) : [];
  const fromRequests = entries.map(filedEntry);
  const all = fromRequests.length
    ? [...stored, ...fromRequests].sort((a, b) => b.seq - a.seq)
    : stored;
  const items = all.slice(0, q.limit);
  const total = q.withTotal
    ? audit.count(q) + (withRequests ? requests.countAuditEntries(q) : 0)
    : undefined;
  const last = items.at(-1);
  let nextCursor: string | undefined;
  if (all.length > q.limit && last) {
    nextCursor = withRequests
      ? encodeCursor(last.seq, requestKeyBound(entries, last.seq, before?.key))
      : encodeCursor(last.seq);
  }
  return {
    items,
    ...(total !== undefined ? { total } : {}),
    ...(nextCursor ? { nextCursor } : {}),
  };
}
