import type { AuditEvent } from '../../shared/domain';
import { iso } from '../../shared/clock';
import { compact } from '../engine/kernel/records';
import type { AuditQuery } from '../engine/kernel/kernel-store';
import type { Page } from '../engine/kernel/page';
import type { RequestRow } from '../engine/requests/requests-store';
import { decodeCursor, encodeCursor } from './paging';
import type { AuditRepository } from './audit-repository';
import type { FiledFields, RequestsRepository } from './requests-repository';

const FILED = 'request.filed';

/** What the `request.filed` audit entry of a request records, as it was filed. */
function filedAuditData(r: FiledFields): Record<string, unknown> {
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

/** The `request.filed` entry a request row stands for (see migration 005). */
function filedEntry({ seq, row: r }: { seq: number; row: FiledFields }): AuditEvent {
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
 * requests that are their own `request.filed` entry, in one sequence, newest first; and the
 * filing of a request, which writes its entry.
 */
export class AuditTrail {
  constructor(
    private readonly audit: AuditRepository,
    private readonly requests: RequestsRepository,
  ) {}

  /**
   * Saves a new request with its `request.filed` entry. A request settled as it is filed
   * (by policy, a rule, a grant or the ladder) never changes again, so its row is its own entry:
   * it takes the entry's number in the audit sequence, which spares every auto-approved request
   * a second row (see migration 005). A pending request changes later; its entry is an audit row.
   */
  fileRequest(row: RequestRow): void {
    if (row.status !== 'pending') return this.requests.insert(row, this.audit.reserveSeq());
    this.requests.insert(row);
    this.audit.appendAudit({
      at: row.createdAt,
      type: FILED,
      sessionId: row.sessionId,
      agent: row.agent,
      requestId: row.requestId,
      data: filedAuditData(row),
    });
  }

  /**
   * Up to `limit` entries after `afterSeq`, oldest first, exactly as {@link pageAudit} shows
   * them: what the audit chain (main/audit/) hashes.
   */
  entriesAfter(afterSeq: number, limit: number): AuditEvent[] {
    const stored = this.audit.entriesAfter(afterSeq, limit);
    const fromRequests = this.requests.auditEntriesAfter(afterSeq, limit).map(filedEntry);
    if (!fromRequests.length) return stored;
    if (!stored.length) return fromRequests;
    return [...stored, ...fromRequests].sort((a, b) => a.seq - b.seq).slice(0, limit);
  }

  /** The entries of {@link pageAudit}'s first page. */
  queryAudit(q: AuditQuery): AuditEvent[] {
    return this.pageAudit(q).items;
  }

  /** A page of the audit trail, newest first; the cursor is the page's last entry number. */
  pageAudit(q: AuditQuery & { withTotal?: boolean }): Page<AuditEvent> {
    const cursor = decodeCursor(q.cursor, 1);
    const before = cursor && { seq: cursor[0] ?? 0 };
    const page = { ...q, limit: q.limit + 1 };
    const stored = this.audit.queryEntries(page, before?.seq);
    const withRequests = q.type === undefined || q.type === FILED;
    const fromRequests = withRequests
      ? this.requests.listAuditEntries(page, before).map(filedEntry)
      : [];
    const all = fromRequests.length
      ? [...stored, ...fromRequests].sort((a, b) => b.seq - a.seq)
      : stored;
    const items = all.slice(0, q.limit);
    const total = q.withTotal
      ? this.audit.countEntries(q) + (withRequests ? this.requests.countAuditEntries(q) : 0)
      : undefined;
    const last = items.at(-1);
    let nextCursor: string | undefined;
    if (all.length > q.limit && last) nextCursor = encodeCursor(last.seq);
    return {
      items,
      ...(total !== undefined ? { total } : {}),
      ...(nextCursor ? { nextCursor } : {}),
    };
  }
}
