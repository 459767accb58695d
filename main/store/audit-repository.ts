import type Database from 'better-sqlite3';
import type { AuditEvent } from '../../shared/domain';
import type { AuditInput, AuditQuery } from '../engine/kernel/kernel-store';
import { orUndefined } from './row-mapping';

type Raw = Record<string, unknown>;

/**
 * The highest number the audit sequence has given out: audit rows, and requests that are
 * their own entry (whose numbers rise with their keys, so the newest such request has it).
 */
export function highestAuditSeq(db: Database.Database): number {
  const inAudit = db.prepare('SELECT max(seq) FROM audit').pluck().get() as number | null;
  // max() over the partial index requests_audit (migration 010): one index lookup. Ordering by
  // request_key instead scanned every request when the newest had no audit_seq (a history
  // from before migration 005): 90-230 ms of every start with 200k requests.
  const inRequests = db
    .prepare('SELECT max(audit_seq) FROM requests WHERE audit_seq IS NOT NULL')
    .pluck()
    .get() as number | null;
  return Math.max(inAudit ?? 0, inRequests ?? 0);
}

/** The append-only audit log: every state change, with its evidence. */
export class AuditRepository {
  private readonly insertStmt;
  private readonly updateDataStmt;
  private readonly afterStmt;
  /**
   * The next number in the audit sequence. Requests can hold entries too (see migration
   * 005), so numbers are handed out here rather than by the table; a number whose
   * transaction rolls back is skipped.
   */
  private nextSeq: number;

  constructor(private readonly db: Database.Database) {
    this.insertStmt =
      db.prepare(`INSERT INTO audit (seq, at, type, session_id, agent, request_id, data_json)
      VALUES (?, ?, ?, ?, ?, ?, ?)`);
    this.updateDataStmt = db.prepare('UPDATE audit SET data_json = ? WHERE seq = ?');
    this.afterStmt = db.prepare('SELECT * FROM audit WHERE seq > ? ORDER BY seq LIMIT ?');
    this.nextSeq = highestAuditSeq(db) + 1;
  }

  /** Rewrites an entry's data (a folded entry's count); false when the entry is gone. */
  updateAuditData(seq: number, data: Record<string, unknown>): boolean {
    return this.updateDataStmt.run(JSON.stringify(data), seq).changes > 0;
  }

  reserveSeq(): number {
    return this.nextSeq++;
  }

  appendAudit(e: AuditInput): number {
    const seq = this.nextSeq++;
    this.insertStmt.run(
      seq,
      e.at,
      e.type,
      e.sessionId ?? null,
      e.agent ?? null,
      e.requestId ?? null,
      JSON.stringify(e.data),
    );
    return seq;
  }

  /** Entries matching `q` before `beforeSeq`, newest first. */
  queryEntries(q: AuditQuery, beforeSeq?: number): AuditEvent[] {
    const { where, args } = auditFilter(q);
    if (beforeSeq !== undefined) {
      where.push('seq < @beforeSeq');
      args.beforeSeq = beforeSeq;
    }
    const sql = `SELECT * FROM audit ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY seq DESC LIMIT @limit`;
    args.limit = q.limit;
    return (this.db.prepare(sql).all(args) as Raw[]).map(toAuditEvent);
  }

  /** Up to `limit` entries after `afterSeq`, oldest first (the audit chain's walk). */
  entriesAfter(afterSeq: number, limit: number): AuditEvent[] {
    return (this.afterStmt.all(afterSeq, limit) as Raw[]).map(toAuditEvent);
  }

  /** How many entries of the audit table match `q` (an index walk, no rows read). */
  countEntries(q: AuditQuery): number {
    const { where, args } = auditFilter(q);
    return this.db
      .prepare(`SELECT COUNT(*) FROM audit ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`)
      .pluck()
      .get(args) as number;
  }
}

function toAuditEvent(r: Raw): AuditEvent {
  return {
    seq: r.seq as number,
    at: new Date(r.at as number).toISOString(),
    type: r.type as string,
    sessionId: orUndefined(r.session_id as string | null),
    agent: orUndefined(r.agent as string | null),
    requestId: orUndefined(r.request_id as string | null),
    data: JSON.parse(r.data_json as string) as Record<string, unknown>,
  };
}

/** The WHERE terms of an audit query and their bound values. */
function auditFilter(q: AuditQuery): { where: string[]; args: Record<string, unknown> } {
  const where: string[] = [];
  const args: Record<string, unknown> = {};
  const add = (sql: string, key: string, value: unknown): void => {
    if (value === undefined) return;
    where.push(sql);
    args[key] = value;
  };
  add('type = @type', 'type', q.type);
  add('session_id = @sessionId', 'sessionId', q.sessionId);
  add('agent = @agent', 'agent', q.agent);
  add('request_id = @requestId', 'requestId', q.requestId);
  add('at >= @since', 'since', q.sinceMs);
  add('at < @until', 'until', q.untilMs);
  add('seq > @afterSeq', 'afterSeq', q.afterSeq);
  return { where, args };
}
