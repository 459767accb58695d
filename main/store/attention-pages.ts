import type Database from 'better-sqlite3';
import { attentionRank, rankedUrgency } from '../../shared/queue-order';
import { LONG_WAIT_MS } from '../../shared/request-picture/inferred-urgency';
import { URGENCY_ORDER, isWaitingForYou, type Urgency } from '../../shared/domain';
import { riskOfRule } from '../engine/policy/protected-paths';
import type { OpenRequestQuery, RequestRow } from '../engine/requests/requests-store';
import { StatementCache } from './statement-cache';
import { UNAPPROVED } from './session-subsets';
import { WAITING_SQL } from './waiting-sql';

/**
 * The review queue in attention order (shared/queue-order.ts), a page at a time, without
 * ranking every waiting request. A row's rank depends on three things:
 * - whether its agent is blocked on it (`status = 'pending'` with a deadline): the
 *   `BLOCKED_SQL` expression, kept by SQLite in the index as the status changes;
 * - its ranked urgency: the agent's `urgency` when inference is off; else the urgency
 *   inferred when it was filed (`ranked_urgency`, stored by {@link filedRankedUrgency}),
 *   except that a blocked `normal` request becomes `high` once its agent has waited
 *   {@link LONG_WAIT_MS} (shared/request-picture/inferred-urgency.ts): the only way the
 *   inference moves with time, and a bound on `created_at`;
 * - whether its session is connected, which only the caller knows (a set of session ids).
 * So the queue splits into a few cells (blocked, urgency, ranked urgency), each a range of
 * the partial index `requests_queue` (migration 024) in `created_at, request_key` order,
 * which is the order within a rank. A page reads, rank by rank from the cursor on, at most a
 * page of each cell and merges them. The requests of connected sessions are read through
 * their sessions (`requests_unapproved`) and ranked in SQL: they are as many as the live
 * agents keep waiting, not the history of gone ones.
 */

/** Whether a row's agent is blocked on it: shared/agent-blocked.ts. The index's expression. */
export const BLOCKED_SQL = `(status = 'pending' AND timeout_at IS NOT NULL)`;
/**
 * The urgency inferred at filing; a row written without it (by a tool other than the daemon,
 * or before migration 024 for a request no longer waiting) ranks by the agent's own. An
 * expression of the index, so that no waiting row falls outside every range of it.
 */
export const RANKED_SQL = 'coalesce(ranked_urgency, urgency)';
const FROM_QUEUE = 'requests INDEXED BY requests_queue';

/**
 * The urgency a request is ranked by from its filing on, stored with it: inference at its
 * filing time, which no later time lowers. Null for a request settled as it is filed: the
 * queue never holds it, and an auto-approved request neither runs the inference nor stores
 * a value ({@link RANKED_SQL} reads null as the agent's own).
 */
export function filedRankedUrgency(r: FiledFacts): Urgency | null {
  if (!isWaitingForYou(r.status)) return null;
  return rankedUrgency(
    {
      urgency: r.urgency,
      risk: riskOfRule(r.rule),
      ...(r.target != null ? { target: r.target } : {}),
      ...(r.command != null ? { command: r.command } : {}),
      action: r.action,
      status: r.status,
      ...(r.timeoutAt != null ? { timeoutAt: new Date(r.timeoutAt).toISOString() } : {}),
      createdAt: new Date(r.createdAt).toISOString(),
    },
    r.createdAt,
  );
}

/** What {@link filedRankedUrgency} reads of a request: a row, or its columns (null for none). */
export interface FiledFacts {
  urgency: Urgency;
  rule: string;
  target?: string | null | undefined;
  command?: string | null | undefined;
  action: string;
  status: RequestRow['status'];
  timeoutAt?: number | null | undefined;
  createdAt: number;
}

/** A row as read, with its rank in the queue. */
export type RankedRaw = Record<string, unknown> & {
  attention_rank: number;
  created_at: number;
  request_key: number;
};

/** Where a page starts: strictly after this (rank, created_at, key). */
type After = { rank: number; at: number; key: number } | undefined;

/** What one page reads, the same for the connected sessions' rows and the indexed ones. */
interface PageRead {
  /** The connected sessions' ids; undefined when the caller knows none (all connected). */
  live: string[] | undefined;
  infer: boolean;
  /** Filed at or before this, a blocked `normal` request ranks `high` (inference on). */
  flipAt: number;
  filter: PageFilter;
  n: number;
  after: After;
}

/** One range of the index: a cell, maybe one side of the time a blocked request turns urgent. */
interface Segment {
  rank: number;
  blocked: boolean;
  urgency: Urgency;
  ranked: Urgency;
  /** `<=`: filed at or before `@flipAt` (waited long); `>`: after it. */
  filed?: '<=' | '>';
}

/** The urgency a cell's rows rank by, on each side of the flip time. */
function segmentsOf(infer: boolean, connected: boolean): Segment[] {
  const out: Segment[] = [];
  for (const blocked of [true, false])
    for (const urgency of URGENCY_ORDER)
      for (const ranked of URGENCY_ORDER) {
        const cell = { blocked, urgency, ranked };
        const rank = (u: Urgency) => attentionRank(blocked, u, connected);
        if (!infer) out.push({ ...cell, rank: rank(urgency) });
        else if (blocked && ranked === 'normal') {
          out.push({ ...cell, rank: rank('high'), filed: '<=' });
          out.push({ ...cell, rank: rank('normal'), filed: '>' });
        } else out.push({ ...cell, rank: rank(ranked) });
      }
  return out;
}

const byQueueOrder = (a: RankedRaw, b: RankedRaw): number =>
  b.attention_rank - a.attention_rank ||
  a.created_at - b.created_at ||
  a.request_key - b.request_key;

/** The filters of a page (agent, live or gone sessions) as SQL terms and their args. */
export interface PageFilter {
  where: string[];
  args: Record<string, unknown>;
}

export class AttentionPages {
  private readonly statements: StatementCache;

  constructor(db: Database.Database) {
    this.statements = new StatementCache(db);
  }

  /**
   * The first `n` waiting rows in queue order after `cursor` ([rank, created_at, key]),
   * among those `filter` keeps.
   */
  rows(q: OpenRequestQuery, filter: PageFilter, n: number, cursor: number[] | undefined) {
    const after: After = cursor
      ? { rank: cursor[0]!, at: cursor[1] ?? 0, key: cursor[2] ?? 0 }
      : undefined;
    const infer = q.inferUrgencyAt !== undefined;
    const flipAt = infer ? q.inferUrgencyAt! - LONG_WAIT_MS : 0;
    const read: PageRead = { live: q.connectedSessionIds, infer, flipAt, filter, n, after };
    const connected = read.live?.length ? this.connectedRows(read.live, read) : [];
    const gone = this.indexedRows(read);
    return [...connected, ...gone].sort(byQueueOrder).slice(0, n);
  }

  /**
   * The first `n` rows by rank of the index's cells: every row when `live` is undefined
   * (all connected), else the rows of sessions not in it (gone).
   */
  private indexedRows({ live, infer, flipAt, filter, n, after }: PageRead): RankedRaw[] {
    const segments = segmentsOf(infer, live === undefined).filter(
      (s) => !after || s.rank <= after.rank,
    );
    const ranks = [...new Set(segments.map((s) => s.rank))].sort((a, b) => b - a);
    const out: RankedRaw[] = [];
    for (const rank of ranks) {
      const from = after?.rank === rank ? after : undefined;
      const merged = segments
        .filter((s) => s.rank === rank)
        .flatMap((s) => this.segmentRows(s, live, flipAt, filter, n - out.length, from))
        .sort(byQueueOrder);
      out.push(...merged.slice(0, n - out.length));
      if (out.length >= n) break;
    }
    return out;
  }

  /** At most `limit` rows of one segment, oldest first, after `from`'s (created_at, key). */
  private segmentRows(
    s: Segment,
    live: string[] | undefined,
    flipAt: number,
    filter: PageFilter,
    limit: number,
    from: After,
  ): RankedRaw[] {
    const where = [
      WAITING_SQL,
      `${BLOCKED_SQL} = @blocked`,
      'urgency = @urgency',
      `${RANKED_SQL} = @ranked`,
      ...filter.where,
    ];
    const args: Record<string, unknown> = {
      ...filter.args,
      blocked: s.blocked ? 1 : 0,
      urgency: s.urgency,
      ranked: s.ranked,
      limit,
    };
    if (s.filed) {
      where.push(`created_at ${s.filed} @flipAt`);
      args.flipAt = flipAt;
    }
    if (live?.length) {
      where.push('session_id NOT IN (SELECT value FROM json_each(@live))');
      args.live = JSON.stringify(live);
    }
    if (from) {
      where.push('(created_at > @at OR (created_at = @at AND request_key > @key))');
      Object.assign(args, { at: from.at, key: from.key });
    }
    return this.statements
      .get<[Record<string, unknown>], RankedRaw>(
        `SELECT *, ${s.rank} AS attention_rank FROM ${FROM_QUEUE} WHERE ${where.join(' AND ')}
         ORDER BY created_at, request_key LIMIT @limit`,
      )
      .all(args);
  }

  /**
   * The first `n` rows of connected sessions, ranked in SQL: read through their sessions
   * (`requests_unapproved`, migration 014), so the cost is what the live agents keep waiting.
   */
  private connectedRows(
    live: string[],
    { infer, flipAt, filter, n, after }: PageRead,
  ): RankedRaw[] {
    const rank = rankSql(infer);
    const where = [
      'session_id IN (SELECT value FROM json_each(@live))',
      UNAPPROVED,
      WAITING_SQL,
      ...filter.where,
    ];
    const args: Record<string, unknown> = {
      ...filter.args,
      live: JSON.stringify(live),
      flipAt,
      limit: n,
    };
    if (after) {
      where.push(
        `(${rank} < @rank OR (${rank} = @rank AND (created_at > @at OR (created_at = @at AND request_key > @key))))`,
      );
      Object.assign(args, { rank: after.rank, at: after.at, key: after.key });
    }
    return this.statements
      .get<[Record<string, unknown>], RankedRaw>(
        `SELECT *, ${rank} AS attention_rank FROM requests INDEXED BY requests_unapproved
         WHERE ${where.join(' AND ')}
         ORDER BY attention_rank DESC, created_at, request_key LIMIT @limit`,
      )
      .all(args);
  }
}

/** {@link attentionRank} of a connected session's row, in SQL (the flip as in segmentsOf). */
function rankSql(infer: boolean): string {
  const band = attentionRank(true, 'low') - attentionRank(false, 'low');
  const place = URGENCY_ORDER.map((u) => `WHEN '${u}' THEN ${attentionRank(false, u)}`);
  const urgency = infer
    ? `CASE WHEN ${BLOCKED_SQL} AND ${RANKED_SQL} = 'normal' AND created_at <= @flipAt THEN 'high' ELSE ${RANKED_SQL} END`
    : 'urgency';
  return `(CASE WHEN ${BLOCKED_SQL} THEN ${band} ELSE 0 END + CASE ${urgency} ${place.join(' ')} ELSE 0 END)`;
}
