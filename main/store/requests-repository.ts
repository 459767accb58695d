import type Database from 'better-sqlite3';
import type { AuditQuery } from '../engine/kernel/kernel-store';
import type {
  OpenRequestQuery,
  RequestQuery,
  RequestRow,
  WaitMark,
} from '../engine/requests/requests-store';
import type { Page } from '../engine/kernel/page';
import type { SessionRequestCounts } from '../engine/sessions/sessions-store';
import type { HumanDecision } from '../engine/policy/policy-store';
import { decisionPattern } from '../engine/policy/decision-pattern';
import { idOrdinal } from '../engine/kernel/ids';
import { decodeCursor, pageOf } from './paging';
import { orUndefined, parseJson, toJson, updateClause } from './row-mapping';
import { FROM_UNAPPROVED, UNAPPROVED, firstUnapproved } from './session-subsets';
import { StatementCache } from './statement-cache';
import { HUMAN_DECISIONS, SESSION_PATTERN_DECISIONS } from './human-decisions-sql';
import { WAITING_SQL } from './waiting-sql';
import { AttentionPages, filedRankedUrgency } from './attention-pages';
import {
  TAIL_CAP,
  TAIL_ROWS,
  TAIL_SQL,
  countRequestTail,
  indexRequestTail,
} from './request-key-index';

type Raw = Record<string, unknown>;

/** How many requests a session filed: its key entries and its part of the tail. */
const SESSION_COUNT_SQL = `(SELECT COUNT(*) FROM session_request_keys WHERE session_id = @sessionId)
  + (SELECT COUNT(*) FROM requests WHERE ${TAIL_SQL} AND session_id = @sessionId)`;
const JSON_KEYS = ['paths', 'context', 'conditions'] as const;

function fromRaw(r: Raw): RequestRow {
  return {
    requestId: r.request_id as string,
    sessionId: r.session_id as string,
    agent: r.agent as string,
    project: orUndefined(r.project as string | null),
    action: r.action as string,
    description: r.description as string,
    rationale: orUndefined(r.rationale as string | null),
    urgency: r.urgency as RequestRow['urgency'],
    target: orUndefined(r.target as string | null),
    command: orUndefined(r.command as string | null),
    paths: parseJson(r.paths_json),
    context: parseJson(r.context_json),
    dedupeKey: orUndefined(r.dedupe_key as string | null),
    fingerprint: r.fingerprint as string,
    status: r.status as RequestRow['status'],
    tier: r.tier as RequestRow['tier'],
    rule: r.rule as string,
    ruleReason: r.rule_reason as string,
    createdAt: r.created_at as number,
    timeoutAt: orUndefined(r.timeout_at as number | null),
    decidedAt: orUndefined(r.decided_at as number | null),
    decidedBy: orUndefined(r.decided_by as RequestRow['decidedBy'] | null),
    decidedVia: orUndefined(r.decided_via as RequestRow['decidedVia'] | null),
    scope: orUndefined(r.scope as RequestRow['scope'] | null),
    message: orUndefined(r.message as string | null),
    reason: orUndefined(r.reason as string | null),
    conditions: parseJson(r.conditions_json),
  };
}

/**
 * A decision as rule suggestions read it. Every decision a person makes stores its pattern
 * (and migration 026 gave the older ones theirs); one without is drafted from its columns.
 */
function humanDecisionOf(r: Raw): HumanDecision {
  const row = fromRaw(r);
  // Where the call ran, as a draft and a rule read it (rule-match.ts requestDirs).
  if (typeof r.run_dir === 'string') row.context = { cwd: r.run_dir };
  return { row, pattern: (r.draft_pattern as string | null) ?? decisionPattern(row) };
}

/** Bound values of a (deadline, key) mark; before every wait when there is none. */
const markArgs = (m: WaitMark | undefined): { at: number; key: number } =>
  m ? { at: m.timeoutAt, key: m.key } : { at: Number.MIN_SAFE_INTEGER, key: 0 };

/** A request that is its own `request.filed` audit entry, and that entry's number. */
export interface RequestAuditEntry {
  seq: number;
  row: RequestRow;
}

/** The fields of a request its `request.filed` audit entry shows (main/store/audit-trail.ts). */
export type FiledFields = Pick<
  RequestRow,
  | 'requestId'
  | 'sessionId'
  | 'agent'
  | 'action'
  | 'urgency'
  | 'status'
  | 'tier'
  | 'rule'
  | 'createdAt'
  | 'decidedBy'
>;

/** A request as the audit chain reads it: its entry's number and the fields the entry shows. */
export interface FiledAuditEntry {
  seq: number;
  row: FiledFields;
}

/**
 * A request's key is the number its id spells (see migration 004): rows are found by key,
 * with the id text compared too. Only a row migrated with an id of another shape has none
 * (its key is negative); it is found by the id text alone, with a scan.
 */
const keyOf = (requestId: string): number | null => idOrdinal(requestId) ?? null;

/** The newest id among requests keyed by their id (the floor for the ids made next). */
export function newestRequestId(db: Database.Database): string | undefined {
  return db
    .prepare(
      'SELECT request_id FROM requests WHERE request_key >= 0 ORDER BY request_key DESC LIMIT 1',
    )
    .pluck()
    .get() as string | undefined;
}

/** The review queue's table: every permission request, open or decided. */
export class RequestsRepository {
  private readonly insertStmt;
  private readonly getStmt;
  private readonly getByTextStmt;
  private readonly dedupeStmt;
  private readonly openStmt;
  private readonly sessionTail;
  private readonly sessionKeys;
  private readonly countSessionStmt;
  private readonly countByStatusStmt;
  private readonly countOpenStmt;
  private readonly openSessionsStmt;
  private readonly humanDecidedStmt;
  private readonly sessionPatternsStmt;
  private readonly countWaitingStmt;
  private readonly countTimedOutStmt;
  private readonly dueWaitsStmt;
  private readonly nextDeadlineStmt;
  private readonly attentionPages: AttentionPages;

  /** The partial updates' statements, one per set of changed columns. */
  private readonly updates: StatementCache;
  /** Requests filed after the key tables' mark, counted here to index them in bulk. */
  private tailRows: number;

  /** `tailCap`: see TAIL_CAP (tests make it small). */
  constructor(
    private readonly db: Database.Database,
    private readonly tailCap = TAIL_CAP,
  ) {
    this.updates = new StatementCache(db);
    this.attentionPages = new AttentionPages(db);
    // Positional parameters: binding 26 named ones cost a quarter of the insert.
    this.insertStmt = db.prepare(
      `INSERT INTO requests (request_key, request_id, session_id, agent, project, action, description,
      rationale, urgency, target, command, paths_json, context_json, dedupe_key, fingerprint, status,
      tier, rule, rule_reason, created_at, timeout_at, decided_at, decided_by, scope, message, reason,
      conditions_json, audit_seq, ranked_urgency) VALUES (${Array(29).fill('?').join(', ')})`,
    );
    this.getStmt = db.prepare('SELECT * FROM requests WHERE request_key = ? AND request_id = ?');
    this.getByTextStmt = db.prepare('SELECT * FROM requests WHERE request_id = ?');
    this.dedupeStmt = db.prepare(
      `SELECT * FROM requests WHERE session_id = ? AND dedupe_key = ? AND ${WAITING_SQL}
       ORDER BY created_at DESC LIMIT 1`,
    );
    this.openStmt = db.prepare(`SELECT * FROM requests WHERE ${WAITING_SQL} ORDER BY created_at`);
    // Two ranges of the session's unapproved requests (migration 014), counted on the index.
    // It runs inside the write of every request that waits for a person: through the
    // session's index it read every row of the session (~45 ms at 100k requests).
    this.openSessionsStmt = db
      .prepare(`SELECT DISTINCT session_id FROM requests WHERE ${WAITING_SQL}`)
      .pluck();
    this.countOpenStmt = db
      .prepare(
        `SELECT COUNT(*) FROM ${FROM_UNAPPROVED}
         WHERE session_id = ? AND ${WAITING_SQL} AND ${UNAPPROVED}`,
      )
      .pluck();
    // Without the heavy columns (context, rationale, messages): suggestions read thousands.
    this.humanDecidedStmt = db.prepare(HUMAN_DECISIONS);
    this.sessionPatternsStmt = db.prepare(SESSION_PATTERN_DECISIONS);
    // The covering partial index requests_open: counted, never read. Two counts: a GROUP BY
    // over it costs three times the plain count.
    this.countWaitingStmt = db
      .prepare(`SELECT COUNT(*) FROM requests WHERE ${WAITING_SQL}`)
      .pluck();
    this.countTimedOutStmt = db
      .prepare(`SELECT COUNT(*) FROM requests WHERE ${WAITING_SQL} AND status = 'timed_out'`)
      .pluck();
    // The partial index requests_deadline (migration 010): the next waits to time out, in
    // (deadline, key) order from a mark.
    const after = '(timeout_at > @at OR (timeout_at = @at AND request_key > @key))';
    this.dueWaitsStmt = db.prepare(
      `SELECT request_id, timeout_at, request_key FROM requests INDEXED BY requests_deadline
       WHERE status = 'pending' AND timeout_at IS NOT NULL AND ${after} AND timeout_at <= @upTo
       ORDER BY timeout_at, request_key LIMIT @limit`,
    );
    this.nextDeadlineStmt = db
      .prepare(
        `SELECT timeout_at FROM requests INDEXED BY requests_deadline
         WHERE status = 'pending' AND timeout_at IS NOT NULL AND ${after}
         ORDER BY timeout_at, request_key LIMIT 1`,
      )
      .pluck();
    // A session's requests between two keys, in either order: its tail walked, and its
    // entries in session_request_keys (request-key-index.ts), each row looked up by key.
    const inRange = (t: string) => `${t}request_key > @after AND ${t}request_key < @before`;
    const tailOf = (dir: 'ASC' | 'DESC') =>
      db.prepare(
        `SELECT * FROM requests WHERE ${TAIL_SQL} AND ${inRange('')} AND session_id = @sessionId
         ORDER BY request_key ${dir} LIMIT @limit`,
      );
    const keysOf = (dir: 'ASC' | 'DESC') =>
      db.prepare(
        `SELECT r.* FROM session_request_keys k CROSS JOIN requests r
         ON r.request_key = k.request_key
         WHERE k.session_id = @sessionId AND ${inRange('k.')}
         ORDER BY k.request_key ${dir} LIMIT @limit`,
      );
    this.sessionTail = { ASC: tailOf('ASC'), DESC: tailOf('DESC') };
    this.sessionKeys = { ASC: keysOf('ASC'), DESC: keysOf('DESC') };
    // Every status but `approved` is counted on requests_unapproved alone; the approved are
    // the rest of the session's count (both walks of an index, no table row read).
    const of = (status: string) => `COALESCE(SUM(status = '${status}'), 0)`;
    this.countByStatusStmt = db.prepare(
      `SELECT total, total - notApproved AS approved, denied, pending, timedOut FROM
       (SELECT ${SESSION_COUNT_SQL} AS total),
       (SELECT COUNT(*) AS notApproved, ${of('denied')} AS denied,
        ${of('pending')} AS pending, ${of('timed_out')} AS timedOut
        FROM ${FROM_UNAPPROVED} WHERE session_id = @sessionId AND ${UNAPPROVED})`,
    );
    // Counted on the key table and the tail, no older row read.
    this.countSessionStmt = db.prepare(`SELECT ${SESSION_COUNT_SQL}`).pluck();
    this.tailRows = countRequestTail(db);
  }

  /** `auditSeq`: the row is its own `request.filed` entry, with this number (migration 005). */
  insert(row: RequestRow, auditSeq?: number): void {
    const key = keyOf(row.requestId);
    // Keys order a session's requests (see listForSession): only ordered ids can make one.
    if (key === null) throw new Error(`request id ${row.requestId} is not a time-ordered id`);
    this.insertStmt.run(
      key,
      row.requestId,
      row.sessionId,
      row.agent,
      row.project ?? null,
      row.action,
      row.description,
      row.rationale ?? null,
      row.urgency,
      row.target ?? null,
      row.command ?? null,
      toJson(row.paths),
      toJson(row.context),
      row.dedupeKey ?? null,
      row.fingerprint,
      row.status,
      row.tier,
      row.rule,
      row.ruleReason,
      row.createdAt,
      row.timeoutAt ?? null,
      row.decidedAt ?? null,
      row.decidedBy ?? null,
      row.scope ?? null,
      row.message ?? null,
      row.reason ?? null,
      toJson(row.conditions),
      auditSeq ?? null,
      filedRankedUrgency(row),
    );
    // Past the cap (no idle moment for a long while), a chunk is indexed here, inside the
    // caller's transaction: the tail and its entries commit together.
    if (++this.tailRows >= this.tailCap) this.indexTailInline();
  }

  /**
   * A chunk of the tail, in a savepoint of the filing's transaction. A chunk that fails undoes
   * only itself, and the request stays filed: the tail is walked by reads, and the next filing
   * tries again. A transaction SQLite gave up (a full disk) takes the row too, and the filing
   * fails with it.
   */
  private indexTailInline(): void {
    try {
      this.indexTailChunk();
    } catch (error) {
      if (!this.db.inTransaction) throw error;
    }
  }

  /** Whether the tail holds enough to be worth indexing (see {@link indexTailChunk}). */
  tailWantsIndexing(): boolean {
    return this.tailRows >= TAIL_ROWS;
  }

  /**
   * Indexes the oldest TAIL_ROWS requests of the tail, in a transaction of its own (or a
   * savepoint of the caller's). Returns whether the tail still wants indexing.
   */
  indexTailChunk(): boolean {
    const indexed = indexRequestTail(this.db, TAIL_ROWS);
    // Counted again when the chunk did not take what the count said (a rollback undid rows).
    this.tailRows = indexed < TAIL_ROWS ? countRequestTail(this.db) : this.tailRows - indexed;
    return this.tailWantsIndexing();
  }

  /**
   * At most `limit` of a session's requests with keys strictly between `after` and `before`,
   * newest first (`DESC`) or oldest first: the tail's keys are all above the key tables'.
   */
  private sessionRange(
    sessionId: string,
    dir: 'ASC' | 'DESC',
    limit: number,
    after = Number.MIN_SAFE_INTEGER,
    before = Number.MAX_SAFE_INTEGER,
  ): Raw[] {
    const [first, second] =
      dir === 'DESC'
        ? [this.sessionTail.DESC, this.sessionKeys.DESC]
        : [this.sessionKeys.ASC, this.sessionTail.ASC];
    // A negative limit is SQLite's "no limit".
    const rows = first.all({ sessionId, after, before, limit }) as Raw[];
    if (limit >= 0 && rows.length >= limit) return rows;
    const rest = limit < 0 ? limit : limit - rows.length;
    return rows.concat(second.all({ sessionId, after, before, limit: rest }) as Raw[]);
  }

  updateRequest(requestId: string, patch: Partial<RequestRow>): void {
    const { sql, values } = updateClause(patch, JSON_KEYS);
    if (sql) this.updateColumns(requestId, sql, values);
  }

  /** `UPDATE requests SET <sql>` of one request, by its key when its id spells one. */
  private updateColumns(requestId: string, sql: string, values: Record<string, unknown>): void {
    const key = keyOf(requestId);
    this.updates
      .get(
        `UPDATE requests SET ${sql} WHERE ${key === null ? '' : 'request_key = @__key AND '}request_id = @__id`,
      )
      .run({ ...values, __id: requestId, ...(key === null ? {} : { __key: key }) });
  }

  getRequest(requestId: string): RequestRow | undefined {
    const key = keyOf(requestId);
    const r = (
      key === null ? this.getByTextStmt.get(requestId) : this.getStmt.get(key, requestId)
    ) as Raw | undefined;
    return r && fromRaw(r);
  }

  /** Requests of a session still waiting for a human (pending or timed out). */
  countOpenRequests(sessionId: string): number {
    return this.countOpenStmt.get(sessionId) as number;
  }

  /** The sessions with requests waiting for a human (pending or timed out). */
  sessionsWithOpenRequests(): string[] {
    return this.openSessionsStmt.all() as string[];
  }

  findOpenByDedupeKey(sessionId: string, dedupeKey: string): RequestRow | undefined {
    const r = this.dedupeStmt.get(sessionId, dedupeKey) as Raw | undefined;
    return r && fromRaw(r);
  }

  /**
   * Requests that are their own audit entry (see migration 005) matching an audit query,
   * newest first. Their audit numbers rise with their keys, so the scan stops at the first
   * one not after `afterSeq`.
   */
  listAuditEntries(q: AuditQuery, before?: { seq: number }): RequestAuditEntry[] {
    return this.auditEntries(q, before, false) as RequestAuditEntry[];
  }

  /**
   * Up to `limit` requests that are their own audit entry after `afterSeq`, oldest first, with
   * the columns their `request.filed` entry shows: what the audit chain reads, every entry
   * once. `SELECT *` with every column mapped cost the sealer 12-25 µs an entry (as much as
   * filing the request); these columns, 5.
   */
  auditEntriesAfter(afterSeq: number, limit: number): FiledAuditEntry[] {
    this.filedAfterStmt ??= this.db.prepare(
      `SELECT audit_seq, request_id, session_id, agent, action, urgency, status, tier, rule,
              created_at, decided_by
       FROM requests INDEXED BY requests_audit
       WHERE audit_seq IS NOT NULL AND audit_seq > ? ORDER BY audit_seq LIMIT ?`,
    );
    return (this.filedAfterStmt.all(afterSeq, limit) as Raw[]).map((r) => ({
      seq: r.audit_seq as number,
      row: {
        requestId: r.request_id as string,
        sessionId: r.session_id as string,
        agent: r.agent as string,
        action: r.action as string,
        urgency: r.urgency as RequestRow['urgency'],
        status: r.status as RequestRow['status'],
        tier: r.tier as RequestRow['tier'],
        rule: r.rule as string,
        createdAt: r.created_at as number,
        decidedBy: orUndefined(r.decided_by as RequestRow['decidedBy'] | null),
      },
    }));
  }

  private filedAfterStmt: Database.Statement | undefined;

  /** How many requests are their own audit entry matching `q` (without `afterSeq`). */
  countAuditEntries(q: AuditQuery): number {
    if (q.requestId !== undefined) return this.listAuditEntries(q).length;
    return this.auditEntries(q, undefined, true) as number;
  }

  private auditEntries(
    q: AuditQuery,
    before: { seq: number } | undefined,
    countOnly: boolean,
  ): RequestAuditEntry[] | number {
    if (q.requestId !== undefined) {
      const key = keyOf(q.requestId);
      const raw = (
        key === null ? this.getByTextStmt.get(q.requestId) : this.getStmt.get(key, q.requestId)
      ) as Raw | undefined;
      const seq = raw?.audit_seq as number | null | undefined;
      if (!raw || seq == null) return [];
      const r = fromRaw(raw);
      const matches =
        (q.sessionId === undefined || r.sessionId === q.sessionId) &&
        (q.agent === undefined || r.agent === q.agent) &&
        (q.sinceMs === undefined || r.createdAt >= q.sinceMs) &&
        (q.untilMs === undefined || r.createdAt < q.untilMs) &&
        (before === undefined || seq < before.seq) &&
        (q.afterSeq === undefined || seq > q.afterSeq);
      return matches ? [{ seq, row: r }] : [];
    }
    const where = ['audit_seq IS NOT NULL'];
    const args: Record<string, unknown> = {};
    if (q.sessionId !== undefined) {
      where.push('session_id = @sessionId');
      args.sessionId = q.sessionId;
    }
    if (q.agent !== undefined) {
      where.push('agent = @agent');
      args.agent = q.agent;
    }
    if (q.sinceMs !== undefined) {
      where.push('created_at >= @since');
      args.since = q.sinceMs;
    }
    if (q.untilMs !== undefined) {
      where.push('created_at < @until');
      args.until = q.untilMs;
    }
    if (before !== undefined) {
      where.push('audit_seq < @beforeSeq');
      args.beforeSeq = before.seq;
    }
    if (countOnly)
      return this.db
        .prepare(`SELECT COUNT(*) FROM requests WHERE ${where.join(' AND ')}`)
        .pluck()
        .get(args) as number;
    args.max = q.limit;
    // A session's entries: from its first possible key (sessions.requests_from), newest
    // first. Otherwise the partial index requests_audit (migration 010), newest entry first:
    // waiting requests, which are not their own entry, are never walked.
    const sql =
      q.sessionId !== undefined
        ? `SELECT * FROM requests WHERE ${where.join(' AND ')}
           AND request_key > (SELECT requests_from FROM sessions WHERE session_id = @sessionId)
           ORDER BY request_key DESC LIMIT @max`
        : `SELECT * FROM requests INDEXED BY requests_audit WHERE ${where.join(' AND ')}
           ORDER BY audit_seq DESC LIMIT @max`;
    const entries: RequestAuditEntry[] = [];
    for (const raw of this.db.prepare(sql).iterate(args) as IterableIterator<Raw>) {
      const seq = raw.audit_seq as number;
      if (q.afterSeq !== undefined && seq <= q.afterSeq) break;
      entries.push({ seq, row: fromRaw(raw) });
    }
    return entries;
  }

  /**
   * Requests a person decided, newest decision first, at most `limit` (through the partial
   * index requests_human_decided, main/store/human-decisions-sql.ts); without their context,
   * rationale, message, reason and conditions, with the pattern stored as they were decided.
   */
  listHumanDecidedRequests(limit: number): HumanDecision[] {
    return (this.humanDecidedStmt.all({ limit }) as Raw[]).map(humanDecisionOf);
  }

  listSessionPatternDecisions(sessionId: string, limit: number): HumanDecision[] {
    return (this.sessionPatternsStmt.all({ sessionId, limit }) as Raw[]).map(humanDecisionOf);
  }

  setDecisionPattern(requestId: string, pattern: string, runDir: string | undefined): void {
    this.updateColumns(requestId, 'draft_pattern = @pattern, run_dir = @runDir', {
      pattern,
      runDir: runDir ?? null,
    });
  }

  listOpenRequests(): RequestRow[] {
    return (this.openStmt.all() as Raw[]).map(fromRaw);
  }

  /**
   * How many of one agent's requests wait for a person. SQLite picks requests_by_agent or
   * requests_waiting, whichever is narrower; asked only for paused or killed agents.
   */
  countWaitingForAgent(agent: string): number {
    return this.db
      .prepare(`SELECT COUNT(*) FROM requests WHERE agent = ? AND ${WAITING_SQL}`)
      .pluck()
      .get(agent) as number;
  }

  countWaiting(): { waiting: number; timedOut: number } {
    return {
      waiting: this.countWaitingStmt.get() as number,
      timedOut: this.countTimedOutStmt.get() as number,
    };
  }

  listDueWaits(after: WaitMark | undefined, upTo: number, limit: number): WaitMark[] {
    const rows = this.dueWaitsStmt.all({ ...markArgs(after), upTo, limit }) as Raw[];
    return rows.map((r) => ({
      requestId: r.request_id as string,
      timeoutAt: r.timeout_at as number,
      key: r.request_key as number,
    }));
  }

  nextWaitDeadline(after: WaitMark | undefined): number | undefined {
    return orUndefined(this.nextDeadlineStmt.get(markArgs(after)) as number | null | undefined);
  }

  /**
   * A page of the review queue: oldest or newest first through the partial index
   * requests_waiting (migration 010), by attention through requests_queue (migration 024):
   * the cost of a page does not grow with the queue.
   */
  pageOpenRequests(q: OpenRequestQuery): Page<RequestRow> {
    if (q.order === 'attention') return this.pageOpenByAttention(q);
    const { where, args, filter, filterArgs } = openFilter(q);
    const after = decodeCursor(q.cursor, 2);
    const cmp = q.order === 'oldest' ? '>' : '<';
    if (after) {
      where.push(`(created_at ${cmp} @at OR (created_at = @at AND request_key ${cmp} @key))`);
      args.at = after[0];
      args.key = after[1] ?? 0;
    }
    const dir = q.order === 'oldest' ? 'ASC' : 'DESC';
    const rows = this.db
      .prepare(
        `SELECT * FROM requests INDEXED BY requests_waiting WHERE ${where.join(' AND ')}
         ORDER BY created_at ${dir}, request_key ${dir} LIMIT @limit`,
      )
      .all(args) as Raw[];
    return pageOf(
      rows,
      q.limit,
      fromRaw,
      (last) => [last.created_at as number, last.request_key as number],
      this.countWaitingMatching(filter, filterArgs),
    );
  }

  private countWaitingMatching(filter: string, filterArgs: Record<string, unknown>): number {
    return this.db
      .prepare(`SELECT COUNT(*) FROM requests WHERE ${filter}`)
      .pluck()
      .get(filterArgs) as number;
  }

  /**
   * A page of the review queue by what needs the person first (shared/queue-order.ts), read
   * a page at a time through requests_queue (migration 024): main/store/attention-pages.ts.
   */
  private pageOpenByAttention(q: OpenRequestQuery): Page<RequestRow> {
    const { where, filter, filterArgs } = openFilter(q);
    const rows = this.attentionPages.rows(
      q,
      { where: where.filter((w) => w !== WAITING_SQL), args: filterArgs },
      q.limit + 1,
      decodeCursor(q.cursor, 3),
    );
    return pageOf(
      rows,
      q.limit,
      fromRaw,
      (last) => [last.attention_rank, last.created_at, last.request_key],
      this.countWaitingMatching(filter, filterArgs),
    );
  }

  /** Every request of a session, oldest first: grows with the session (summary, archive). */
  listSessionRequests(sessionId: string): RequestRow[] {
    return this.sessionRange(sessionId, 'ASC', -1).map(fromRaw);
  }

  /** How many requests a session filed. */
  countForSession(sessionId: string): number {
    return this.countSessionStmt.get({ sessionId }) as number;
  }

  /** At most `limit` of a session's requests (of `statuses`, when given), oldest first. */
  listFirstSessionRequests(
    sessionId: string,
    limit: number,
    statuses?: readonly string[],
  ): RequestRow[] {
    // Statuses other than `approved` are ranges of requests_unapproved (migration 014):
    // through the session's index, a status the session had none of read every row of it.
    if (statuses?.length && !statuses.includes('approved'))
      return firstUnapproved(this.db, sessionId, statuses, limit).map(fromRaw);
    if (!statuses?.length) return this.sessionRange(sessionId, 'ASC', limit).map(fromRaw);
    const args: Record<string, unknown> = { sessionId, limit };
    statuses.forEach((st, i) => (args[`s${i}`] = st));
    const only = `r.status IN (${statuses.map((_, i) => `@s${i}`).join(', ')})`;
    const older = this.db
      .prepare(
        `SELECT r.* FROM session_request_keys k CROSS JOIN requests r
         ON r.request_key = k.request_key WHERE k.session_id = @sessionId AND ${only}
         ORDER BY k.request_key LIMIT @limit`,
      )
      .all(args) as Raw[];
    if (older.length >= limit) return older.map(fromRaw);
    const tail = this.db
      .prepare(
        `SELECT * FROM requests r WHERE ${TAIL_SQL} AND session_id = @sessionId AND ${only}
         ORDER BY request_key LIMIT @limit`,
      )
      .all({ ...args, limit: limit - older.length }) as Raw[];
    return older.concat(tail).map(fromRaw);
  }

  /** How many requests a session filed, and of some statuses (one walk of its rows). */
  countSessionRequestsByStatus(sessionId: string): SessionRequestCounts {
    return this.countByStatusStmt.get({ sessionId }) as SessionRequestCounts;
  }

  /** At most `limit` of a session's requests before the key `before`, newest first. */
  pageForSession(
    sessionId: string,
    limit: number,
    before = Number.MAX_SAFE_INTEGER,
  ): { key: number; row: RequestRow }[] {
    const rows = this.sessionRange(sessionId, 'DESC', limit, undefined, before);
    return rows.map((r) => ({ key: r.request_key as number, row: fromRaw(r) }));
  }

  /** The newest `limit` requests of a session, newest first (not counted). */
  listNewestSessionRequests(sessionId: string, limit: number): RequestRow[] {
    return this.pageForSession(sessionId, limit).map((r) => r.row);
  }

  /** At most `limit` of a session's requests after the key `after`, oldest first. */
  pageForSessionAfter(
    sessionId: string,
    limit: number,
    after = Number.MIN_SAFE_INTEGER,
  ): { key: number; row: RequestRow }[] {
    const rows = this.sessionRange(sessionId, 'ASC', limit, after);
    return rows.map((r) => ({ key: r.request_key as number, row: fromRaw(r) }));
  }

  /** Requests matching `q`, newest first, a page at a time (by request key). */
  queryRequests(q: RequestQuery): Page<RequestRow> {
    const where: string[] = [];
    const args: Record<string, unknown> = {};
    if (q.status?.length) {
      where.push(`r.status IN (${q.status.map((_, i) => `@s${i}`).join(', ')})`);
      q.status.forEach((s, i) => (args[`s${i}`] = s));
    }
    for (const [key, column] of [
      ['agent', 'agent'],
      ['sessionId', 'session_id'],
      ['action', 'action'],
    ] as const) {
      if (q[key] === undefined) continue;
      where.push(`r.${column} = @${key}`);
      args[key] = q[key];
    }
    const before = decodeCursor(q.cursor, 1);
    args.before = before ? before[0] : Number.MAX_SAFE_INTEGER;
    args.limit = q.limit + 1;
    const keys = keyTableOf(q);
    if (!keys) {
      // Every request, counted on the smaller agent key table and the tail.
      const total = this.db
        .prepare(
          where.length
            ? `SELECT COUNT(*) FROM requests r WHERE ${where.join(' AND ')}`
            : `SELECT (SELECT COUNT(*) FROM agent_request_keys)
               + (SELECT COUNT(*) FROM requests WHERE ${TAIL_SQL})`,
        )
        .pluck()
        .get(args) as number;
      const rows = this.db
        .prepare(
          `SELECT * FROM requests r WHERE ${[...where, 'request_key < @before'].join(' AND ')}
           ORDER BY request_key DESC LIMIT @limit`,
        )
        .all(args) as Raw[];
      return pageOf(rows, q.limit, fromRaw, (last) => [last.request_key as number], total);
    }
    // One session's or one agent's: the tail walked, then its key table (newest first).
    const tailWhere = [TAIL_SQL, ...where].join(' AND ');
    const keysFrom = `${keys.table} k CROSS JOIN requests r ON r.request_key = k.request_key`;
    const keysWhere = [`k.${keys.column} = @${keys.param}`, ...where].join(' AND ');
    // Counted on the key table alone when nothing else filters (no row read).
    const keysTotal = this.db
      .prepare(
        where.length === 1
          ? `SELECT COUNT(*) FROM ${keys.table} k WHERE k.${keys.column} = @${keys.param}`
          : `SELECT COUNT(*) FROM ${keysFrom} WHERE ${keysWhere}`,
      )
      .pluck()
      .get(args) as number;
    const tailTotal = this.db
      .prepare(`SELECT COUNT(*) FROM requests r WHERE ${tailWhere}`)
      .pluck()
      .get(args) as number;
    const rows = this.db
      .prepare(
        `SELECT * FROM requests r WHERE ${tailWhere} AND request_key < @before
         ORDER BY request_key DESC LIMIT @limit`,
      )
      .all(args) as Raw[];
    if (rows.length < q.limit + 1)
      rows.push(
        ...(this.db
          .prepare(
            `SELECT r.* FROM ${keysFrom} WHERE ${keysWhere} AND k.request_key < @before
             ORDER BY k.request_key DESC LIMIT @limit`,
          )
          .all({ ...args, limit: q.limit + 1 - rows.length }) as Raw[]),
      );
    return pageOf(
      rows,
      q.limit,
      fromRaw,
      (last) => [last.request_key as number],
      keysTotal + tailTotal,
    );
  }
}

/** The key table that narrows a query (the session's, else the agent's), if one does. */
function keyTableOf(
  q: RequestQuery,
): { table: string; column: string; param: 'sessionId' | 'agent' } | undefined {
  if (q.sessionId !== undefined)
    return { table: 'session_request_keys', column: 'session_id', param: 'sessionId' };
  if (q.agent !== undefined)
    return { table: 'agent_request_keys', column: 'agent', param: 'agent' };
  return undefined;
}

/** The WHERE terms of a review-queue page (waiting, its agent, connected or gone) and their args. */
function openFilter(q: OpenRequestQuery): {
  where: string[];
  args: Record<string, unknown>;
  filter: string;
  filterArgs: Record<string, unknown>;
} {
  const where = [WAITING_SQL];
  const filterArgs: Record<string, unknown> = {};
  if (q.agent !== undefined) {
    where.push('agent = @agent');
    filterArgs.agent = q.agent;
  }
  if (q.sessions) {
    where.push(
      `session_id ${q.sessions.connected ? 'IN' : 'NOT IN'} (SELECT value FROM json_each(@sessions))`,
    );
    filterArgs.sessions = JSON.stringify(q.sessions.ids);
  }
  return {
    where,
    args: { ...filterArgs, limit: q.limit + 1 },
    filter: where.join(' AND '),
    filterArgs,
  };
}
