import type Database from 'better-sqlite3';
import { isWaitingForYou } from '../../shared/domain';
import { NOT_WAITING_SQL, WAITING_SQL } from './waiting-sql';

/** What retention deletes: each a table walked in rowid order. */
export type PruneKind = 'requests' | 'audit' | 'transcript' | 'sessions';

/** One row the walk looked at: its rowid, its time, and whether it may go. */
interface Candidate {
  rowid: number;
  at: number;
  deletable: boolean;
}

/** What must stay whatever its age: read once per pruning run. */
export interface KeepSets {
  /** Sessions still active: their requests, audit and transcript are in use. */
  activeSessions: Set<string>;
  /** Sessions with a request still waiting for a person: the request shows its session. */
  sessionsWithOpenRequests: Set<string>;
  /** Requests a live grant came from. */
  grantSources: Set<string>;
  /**
   * The audit chain's start (main/audit/): entries past it stay until a signed checkpoint
   * covers them, so the chain stays verifiable. Infinity when nothing is chained yet.
   */
  auditThroughSeq: number;
}

/** One step of a walk: the rows that may go, and where the next step starts. */
export interface PruneStep {
  /** Rowids to delete, with their times. */
  rows: { rowid: number; at: number }[];
  /** The sessions removed by this step (their transcript files go with them). */
  sessionIds: string[];
  /** Rowid the next step starts after. */
  cursor: number;
  /** No row past the cursor can be old enough (or the table is done). */
  done: boolean;
}

/**
 * The SQL of retention: reads a table in small rowid-ordered steps and deletes
 * the rows of one step by rowid, so each write transaction touches at most a few hundred
 * rows. Requests, audit entries and transcript rows have rowids that rise with time (time-
 * ordered keys, AUTOINCREMENT), so a walk stops at the first row newer than the cutoff.
 */
export class RetentionStore {
  private readonly steps: Record<PruneKind, Database.Statement>;
  private readonly deletes: Record<PruneKind, Database.Statement>;

  constructor(private readonly db: Database.Database) {
    this.steps = {
      requests: db.prepare(
        `SELECT request_key AS rowid, request_id AS id, session_id, status, created_at AS at,
           audit_seq FROM requests WHERE request_key > ? ORDER BY request_key LIMIT ?`,
      ),
      audit: db.prepare(
        'SELECT seq AS rowid, session_id, at FROM audit WHERE seq > ? ORDER BY seq LIMIT ?',
      ),
      transcript: db.prepare(
        'SELECT id AS rowid, session_id, at FROM transcript WHERE id > ? ORDER BY id LIMIT ?',
      ),
      sessions: db.prepare(
        `SELECT rowid, session_id, status, ended_at AS at FROM sessions
         WHERE rowid > ? ORDER BY rowid LIMIT ?`,
      ),
    };
    // Each also re-checks, inside the write, what makes a row stay.
    this.deletes = {
      requests: db.prepare(`DELETE FROM requests WHERE request_key = ? AND ${NOT_WAITING_SQL}`),
      audit: db.prepare('DELETE FROM audit WHERE seq = ?'),
      transcript: db.prepare('DELETE FROM transcript WHERE id = ?'),
      // A session's owed transcript file goes with it (migration 012's trigger).
      sessions: db.prepare(`DELETE FROM sessions WHERE rowid = ? AND status <> 'active'`),
    };
  }

  /** Reads what must stay (a read: it takes no write lock). */
  keepSets(auditThroughSeq = Number.POSITIVE_INFINITY): KeepSets {
    const pluck = (sql: string) => new Set(this.db.prepare(sql).pluck().all() as string[]);
    return {
      activeSessions: pluck(`SELECT session_id FROM sessions WHERE status = 'active'`),
      sessionsWithOpenRequests: pluck(
        `SELECT DISTINCT session_id FROM requests WHERE ${WAITING_SQL}`,
      ),
      grantSources: pluck('SELECT source_request_id FROM grants WHERE ended_at IS NULL'),
      auditThroughSeq,
    };
  }

  /** Reads the next `limit` rows of `kind` after `cursor` and picks those older than `cutoff`. */
  step(kind: PruneKind, cursor: number, limit: number, cutoff: number, keep: KeepSets): PruneStep {
    const raw = this.steps[kind].all(cursor, limit) as Record<string, unknown>[];
    const rows: PruneStep['rows'] = [];
    const sessionIds: string[] = [];
    let done = raw.length < limit;
    let next = cursor;
    for (const r of raw) {
      const c = this.judge(kind, r, cutoff, keep);
      // Time-ordered tables: nothing after a new row is old (sessions end in any order).
      if (kind !== 'sessions' && c.at >= cutoff) {
        done = true;
        break;
      }
      next = c.rowid;
      if (!c.deletable) continue;
      rows.push({ rowid: c.rowid, at: c.at });
      if (kind === 'sessions') sessionIds.push(r.session_id as string);
    }
    return { rows, sessionIds, cursor: next, done };
  }

  private judge(
    kind: PruneKind,
    r: Record<string, unknown>,
    cutoff: number,
    keep: KeepSets,
  ): Candidate {
    const rowid = r.rowid as number;
    const at = (r.at as number | null) ?? Number.POSITIVE_INFINITY;
    const session = r.session_id as string | null;
    const old = at < cutoff;
    const liveSession = session !== null && keep.activeSessions.has(session);
    switch (kind) {
      case 'requests': {
        const open = isWaitingForYou(r.status as string);
        // A request that is its own audit entry (migration 005) is kept while the chain needs it.
        const entry = r.audit_seq as number | null;
        const chained = entry !== null && entry > keep.auditThroughSeq;
        const deletable =
          old && !open && !liveSession && !chained && !keep.grantSources.has(r.id as string);
        return { rowid, at, deletable };
      }
      case 'sessions': {
        const deletable =
          old && r.status !== 'active' && !keep.sessionsWithOpenRequests.has(session as string);
        return { rowid, at, deletable };
      }
      case 'audit':
        return { rowid, at, deletable: old && !liveSession && rowid <= keep.auditThroughSeq };
      default:
        return { rowid, at, deletable: old && !liveSession };
    }
  }

  /** Deletes one step's rows in one short transaction; how many went. */
  delete(kind: PruneKind, rowids: readonly number[]): number {
    const stmt = this.deletes[kind];
    return this.db.transaction(() => {
      let n = 0;
      for (const id of rowids) n += stmt.run(id).changes;
      return n;
    })();
  }

  /** Gives back up to `pages` free pages to the file system; how many pages the file lost. */
  vacuumStep(pages: number): number {
    const before = this.db.pragma('page_count', { simple: true }) as number;
    this.db.pragma(`incremental_vacuum(${pages})`);
    const after = this.db.pragma('page_count', { simple: true }) as number;
    return before - after;
  }

  freePages(): number {
    return this.db.pragma('freelist_count', { simple: true }) as number;
  }
}
