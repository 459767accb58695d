import type Database from 'better-sqlite3';
import type { AgentSessionTally } from '../engine/controls/controls-store';
import type { Page } from '../engine/kernel/page';
import type { SessionQuery, SessionRow } from '../engine/sessions/sessions-store';
import { decodeCursor, pageOf } from './paging';
import { orUndefined, parseJson, toJson, updateClause } from './row-mapping';
import { StatementCache } from './statement-cache';

type Raw = Record<string, unknown>;

function fromRaw(r: Raw): SessionRow {
  return {
    sessionId: r.session_id as string,
    agent: r.agent as string,
    sessionKey: orUndefined(r.session_key as string | null),
    project: orUndefined(r.project as string | null),
    labels: parseJson(r.labels_json),
    status: r.status as SessionRow['status'],
    startedAt: r.started_at as number,
    endedAt: orUndefined(r.ended_at as number | null),
    lastSeenAt: r.last_seen_at as number,
    costUsd: r.cost_usd as number,
    summaryJson: orUndefined(r.summary_json as string | null),
  };
}

/** Agent sessions: one row per Gatehouse session, resumable by (agent, sessionKey). */
export class SessionsRepository {
  private readonly insertStmt;
  private readonly getStmt;
  private readonly byKeyStmt;
  private readonly tallyStmt;

  /** The partial updates' statements, one per set of changed columns. */
  private readonly updates: StatementCache;

  constructor(private readonly db: Database.Database) {
    this.updates = new StatementCache(db);
    this.insertStmt =
      db.prepare(`INSERT INTO sessions (session_id, agent, session_key, project, labels_json,
      status, started_at, ended_at, last_seen_at, cost_usd, summary_json, requests_from) VALUES (@sessionId,
      @agent, @sessionKey, @project, @labels, @status, @startedAt, @endedAt, @lastSeenAt, @costUsd,
      @summaryJson, (SELECT COALESCE(MAX(rowid), 0) FROM requests))`);
    this.getStmt = db.prepare('SELECT * FROM sessions WHERE session_id = ?');
    this.byKeyStmt = db.prepare('SELECT * FROM sessions WHERE agent = ? AND session_key = ?');
    this.tallyStmt = db.prepare(
      `SELECT agent, SUM(status = 'active') AS activeSessions,
         MAX(MAX(last_seen_at), COALESCE(MAX(ended_at), 0)) AS lastSeenAt
       FROM sessions GROUP BY agent ORDER BY MAX(started_at) DESC, MAX(rowid) DESC`,
    );
  }

  insertSession(row: SessionRow): void {
    this.insertStmt.run({
      sessionId: row.sessionId,
      agent: row.agent,
      sessionKey: row.sessionKey ?? null,
      project: row.project ?? null,
      labels: toJson(row.labels),
      status: row.status,
      startedAt: row.startedAt,
      endedAt: row.endedAt ?? null,
      lastSeenAt: row.lastSeenAt,
      costUsd: row.costUsd,
      summaryJson: row.summaryJson ?? null,
    });
  }

  updateSession(sessionId: string, patch: Partial<SessionRow>): void {
    const { sql, values } = updateClause(patch, ['labels']);
    if (!sql) return;
    this.updates
      .get(`UPDATE sessions SET ${sql} WHERE session_id = @__id`)
      .run({ ...values, __id: sessionId });
  }

  getSession(sessionId: string): SessionRow | undefined {
    const r = this.getStmt.get(sessionId) as Raw | undefined;
    return r && fromRaw(r);
  }

  findSessionByKey(agent: string, sessionKey: string): SessionRow | undefined {
    const r = this.byKeyStmt.get(agent, sessionKey) as Raw | undefined;
    return r && fromRaw(r);
  }

  listSessions(q: SessionQuery): SessionRow[] {
    return this.pageSessions(q).items;
  }

  /** Sessions newest first, a page at a time (through sessions_by_start or sessions_by_status). */
  pageSessions(q: SessionQuery): Page<SessionRow> {
    const where: string[] = [];
    if (q.agent) where.push('agent = @agent');
    if (q.status === 'active') where.push("status = 'active'");
    if (q.status === 'ended') where.push("status <> 'active'");
    const args: Record<string, unknown> = { agent: q.agent ?? null };
    const total = this.db
      .prepare(
        `SELECT COUNT(*) FROM sessions ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`,
      )
      .pluck()
      .get(args) as number;
    const before = decodeCursor(q.cursor, 2);
    if (before) {
      where.push('(started_at < @at OR (started_at = @at AND rowid < @row))');
      args.at = before[0];
      args.row = before[1] ?? 0;
    }
    const rows = this.db
      .prepare(
        `SELECT rowid AS row_number, * FROM sessions ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY started_at DESC, rowid DESC LIMIT @limit`,
      )
      .all({ ...args, limit: q.limit + 1 }) as Raw[];
    return pageOf(
      rows,
      q.limit,
      fromRaw,
      (last) => [last.started_at as number, last.row_number as number],
      total,
    );
  }

  /** Active sessions and their distinct agents, counted through sessions_by_status. */
  countActiveSessions(): { sessions: number; agents: number } {
    const r = this.db
      .prepare(
        "SELECT COUNT(*) AS sessions, COUNT(DISTINCT agent) AS agents FROM sessions WHERE status = 'active'",
      )
      .get() as { sessions: number; agents: number };
    return r;
  }

  /**
   * Every agent with a session: its active sessions and when it was last seen, counted in
   * one pass over the sessions (nothing read into memory), the agent of the newest session
   * first.
   */
  tallySessionsByAgent(): AgentSessionTally[] {
    return this.tallyStmt.all() as AgentSessionTally[];
  }
}
