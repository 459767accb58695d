import type { AuditEvent } from '../../shared/domain';
import { iso } from '../../shared/clock';
import { compact, filedAuditData } from '../engine/records';
import type { AuditQuery, RequestRow } from '../engine/store-port';
import type { AuditRepository } from './audit-repository';
import type { RequestsRepository } from './requests-repository';

const FILED = 'request.filed';

/** The `request.filed` entry a request row stands for (see migration 005). */
function filedEntry(r: RequestRow): AuditEvent {
  return compact({
    seq: r.auditSeq!,
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
  const stored = audit.query(q);
  if (q.type !== undefined && q.type !== FILED) return stored;
  const fromRequests = requests.listAuditEntries(q).map(filedEntry);
  if (!fromRequests.length) return stored;
  return [...stored, ...fromRequests].sort((a, b) => b.seq - a.seq).slice(0, q.limit);
}
