import { num, type Sql } from './sql';

/** Held by each batch of a data job, so replicas starting together take turns, never race. */
const DATA_JOB_LOCK = 7_230_025_001;

/** Where a data job got to (hub_data_jobs, migration 015). */
export interface DataJobState {
  phase: string;
  /** The primary key of the last row finished in this phase; null at its start. */
  afterKey: (string | number)[] | null;
  phaseTotal: number | null;
  phaseDone: number;
  counts: Record<string, number>;
  /** The first of the rows left on purpose (their keys), at most as many as the job names. */
  kept: number[];
  /** How many rows were left on purpose in all. */
  keptCount: number;
  startedAt: number | null;
  doneAt: number | null;
  /** The time through which rows written since the job began were looked at again. */
  caughtUpTo: number | null;
}

interface JobRow {
  phase: string;
  after_key: (string | number)[] | null;
  phase_total: string | number | null;
  phase_done: string | number;
  counts: Record<string, number>;
  kept: number[];
  kept_count: string | number;
  started_at: string | number | null;
  done_at: string | number | null;
  caught_up_to: string | number | null;
}

/**
 * The job's state, under the jobs' lock held to the end of the caller's transaction; undefined
 * when the database has no such job (it was never owed).
 */
export async function lockDataJob(tx: Sql, name: string): Promise<DataJobState | undefined> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [DATA_JOB_LOCK]);
  const [r] = await tx.query<JobRow>('SELECT * FROM hub_data_jobs WHERE name = $1', [name]);
  if (!r) return undefined;
  return {
    phase: r.phase,
    afterKey: r.after_key,
    phaseTotal: r.phase_total === null ? null : num(r.phase_total),
    phaseDone: num(r.phase_done),
    counts: r.counts,
    kept: r.kept,
    keptCount: num(r.kept_count),
    startedAt: r.started_at === null ? null : num(r.started_at),
    doneAt: r.done_at === null ? null : num(r.done_at),
    caughtUpTo: r.caught_up_to === null ? null : num(r.caught_up_to),
  };
}

export async function saveDataJob(tx: Sql, name: string, s: DataJobState): Promise<void> {
  await tx.query(
    `UPDATE hub_data_jobs SET phase = $2, after_key = $3::jsonb, phase_total = $4, phase_done = $5,
       counts = $6::jsonb, kept = $7::jsonb, kept_count = $8, started_at = $9, done_at = $10,
       caught_up_to = $11
     WHERE name = $1`,
    [
      name,
      s.phase,
      s.afterKey === null ? null : JSON.stringify(s.afterKey),
      s.phaseTotal,
      s.phaseDone,
      JSON.stringify(s.counts),
      JSON.stringify(s.kept),
      s.keptCount,
      s.startedAt,
      s.doneAt,
      s.caughtUpTo,
    ],
  );
}

/**
 * A table a data job works through: its primary key's columns (the order batches go in) and
 * the columns it reads and may rewrite (`jsonb` ones are sent as JSON text).
 */
export interface JobTable {
  table: string;
  key: readonly string[];
  columns: readonly string[];
  jsonb: readonly string[];
}

/** The tables' shapes, named here so no other file holds their SQL. */
export const JOB_TABLES = {
  requests: {
    table: 'requests',
    key: ['machine_id', 'request_id'],
    columns: ['record', 'rule_offers'],
    jsonb: ['record', 'rule_offers'],
  },
  decisions: {
    table: 'decisions',
    key: ['decision_id'],
    columns: ['payload', 'signature', 'detail'],
    jsonb: [],
  },
  shadow: {
    table: 'team_shadow_records',
    key: ['machine_id', 'record_id'],
    columns: ['summary'],
    jsonb: [],
  },
  notices: {
    table: 'desktop_notices',
    key: ['to_machine_id', 'machine_id', 'request_id', 'kind'],
    columns: ['notice'],
    jsonb: ['notice'],
  },
  audit: { table: 'audit', key: ['seq'], columns: ['data', 'hash'], jsonb: ['data'] },
} as const satisfies Record<string, JobTable>;

export type JobRowOf = Record<string, unknown>;

/** How many rows the table holds (a phase's progress is counted against it). */
export async function countJobRows(tx: Sql, t: JobTable): Promise<number> {
  const [r] = await tx.query<{ n: string | number }>(`SELECT count(*) AS n FROM ${t.table}`);
  return num(r!.n);
}

/**
 * Up to `limit` rows after `afterKey` in primary key order, locked to the end of the caller's
 * transaction, so nothing written to them meanwhile is overwritten with what was read before.
 * Ordered and compared in the key's own collation, so each batch is a walk of the primary key's
 * index, not a sort of the table.
 */
export function jobRowsAfter(
  tx: Sql,
  t: JobTable,
  afterKey: readonly (string | number)[] | null,
  limit: number,
): Promise<JobRowOf[]> {
  return lockedRowsInOrder(tx, t, undefined, afterKey, limit);
}

/**
 * When a row of each table was last written, for the job's catch-up rounds: a request's last
 * update, a decision's answer (or its making), a notice's queueing, a shadow example's time.
 */
export const WRITTEN_AT = {
  requests: 'updated_at',
  decisions: 'GREATEST(created_at, COALESCE(answered_at, 0))',
  shadow: 'at',
  notices: 'queued_at',
} as const satisfies Partial<Record<keyof typeof JOB_TABLES, string>>;

/**
 * Up to `limit` rows written at `from` or later, after `after` (the last row of the previous
 * batch: its written time and key) in that order, locked to the end of the transaction.
 */
export function jobRowsWrittenSince(
  tx: Sql,
  t: JobTable,
  writtenAt: string,
  from: number,
  after: readonly (string | number)[] | null,
  limit: number,
): Promise<JobRowOf[]> {
  return lockedRowsInOrder(tx, t, { writtenAt, from }, after, limit);
}

/**
 * One batch of a walk through a table, locked: in primary key order, or (`since`) by the time a
 * row was written and then its key, from that time on. `after` is the last row of the previous
 * batch in the same order (its written time first, when walking by time).
 */
function lockedRowsInOrder(
  tx: Sql,
  t: JobTable,
  since: { writtenAt: string; from: number } | undefined,
  after: readonly (string | number)[] | null,
  limit: number,
): Promise<JobRowOf[]> {
  const order = since ? [since.writtenAt, ...t.key] : [...t.key];
  const casts = [...(since ? ['::bigint'] : []), ...t.key.map(keyCast)];
  const params: (string | number)[] = [limit];
  const where: string[] = [];
  if (since) {
    params.push(since.from);
    where.push(`${since.writtenAt} >= $${params.length}`);
  }
  if (after) {
    const place = after.map((_, i) => `$${params.length + i + 1}${casts[i]}`);
    where.push(`(${order.join(', ')}) > (${place.join(', ')})`);
    params.push(...after);
  }
  const written = since ? `${since.writtenAt} AS written_at, ` : '';
  return tx.query<JobRowOf>(
    `SELECT ${written}${[...t.key, ...t.columns].join(', ')} FROM ${t.table}
     ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY ${order.join(', ')} LIMIT $1 FOR UPDATE`,
    params,
  );
}

/** Rewrites the given columns of one row, found by its primary key. */
export async function updateJobRow(
  tx: Sql,
  t: JobTable,
  key: readonly (string | number)[],
  values: Record<string, string | null>,
): Promise<void> {
  const columns = Object.keys(values);
  const sets = columns.map(
    (c, i) => `${c} = $${i + 1}${(t.jsonb as readonly string[]).includes(c) ? '::jsonb' : ''}`,
  );
  const where = t.key.map((k, i) => `${k} = $${columns.length + i + 1}${keyCast(k)}`);
  await tx.query(`UPDATE ${t.table} SET ${sets.join(', ')} WHERE ${where.join(' AND ')}`, [
    ...columns.map((c) => values[c]!),
    ...key,
  ]);
}

/** Numeric key columns (audit's seq, a shadow record's id) are compared as numbers. */
const NUMERIC_KEYS = new Set(['seq', 'record_id']);
const keyCast = (k: string) => (NUMERIC_KEYS.has(k) ? '::bigint' : '');

/**
 * Rewrites the tables into new files (`VACUUM FULL`), so the row versions an UPDATE left
 * behind, still in the old pages until PostgreSQL reuses them, are gone from the data folder.
 * It locks each table whole while it runs: only where no other replica is serving.
 */
export async function rewriteJobTables(db: Sql, tables: readonly JobTable[]): Promise<void> {
  for (const t of tables) await db.query(`VACUUM FULL ${t.table}`);
}
