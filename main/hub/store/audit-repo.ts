import { CHAIN_GENESIS, chainHash } from '../../audit/audit-chain';
import { num, type Sql, type SqlDatabase } from './sql';

export interface HubAuditEntry {
  seq: number;
  at: number;
  type: string;
  actor?: string;
  machineId?: string;
  requestId?: string;
  data?: Record<string, unknown>;
}

/** The advisory lock every replica takes to append to the one audit chain. */
export const AUDIT_CHAIN_LOCK = 7_230_024_001;

const isDatabase = (sql: Sql): sql is SqlDatabase => 'transaction' in sql;

/**
 * Appends one audit entry, chained to the one before it, in the caller's transaction when
 * `sql` is one (its own otherwise). See {@link appendAudits}.
 */
export async function appendAudit(
  sql: Sql,
  at: number,
  entry: Omit<HubAuditEntry, 'seq' | 'at'>,
): Promise<void> {
  await appendAudits(sql, at, [entry]);
}

/**
 * Appends audit entries in order, each chained to the one before it, in the caller's
 * transaction when `sql` is one (its own otherwise). The advisory lock, held to the
 * transaction's end, orders the appends of every replica: each reads the head only once the
 * one before has committed (or rolled back), so two replicas appending at once still make one
 * chain. Append last in a transaction, after its other writes: a transaction that locked a
 * row after taking the chain's lock could wait on one that holds the row and waits for the
 * chain (a deadlock PostgreSQL breaks by failing one of them).
 */
export async function appendAudits(
  sql: Sql,
  at: number,
  entries: readonly Omit<HubAuditEntry, 'seq' | 'at'>[],
): Promise<void> {
  if (entries.length === 0) return;
  if (isDatabase(sql)) {
    await sql.transaction((tx) => appendAudits(tx, at, entries));
    return;
  }
  await sql.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_CHAIN_LOCK]);
  const [head] = await sql.query<{ hash: string }>(
    'SELECT hash FROM audit WHERE hash IS NOT NULL ORDER BY seq DESC LIMIT 1',
  );
  let previous = head ? Buffer.from(head.hash, 'hex') : CHAIN_GENESIS;
  for (const entry of entries) {
    const [next] = await sql.query<{ seq: string | number }>(
      "SELECT nextval(pg_get_serial_sequence('audit', 'seq')) AS seq",
    );
    // As the database gives it back (JSONB), so the hash verify recomputes is the same.
    const data =
      entry.data === undefined
        ? undefined
        : (JSON.parse(JSON.stringify(entry.data)) as Record<string, unknown>);
    const row: HubAuditEntry = {
      seq: num(next!.seq),
      at,
      type: entry.type,
      ...(entry.actor !== undefined ? { actor: entry.actor } : {}),
      ...(entry.machineId !== undefined ? { machineId: entry.machineId } : {}),
      ...(entry.requestId !== undefined ? { requestId: entry.requestId } : {}),
      ...(data !== undefined ? { data } : {}),
    };
    previous = chainHash(previous, row);
    await sql.query(
      'INSERT INTO audit (seq, at, type, actor, machine_id, request_id, data, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      [
        row.seq,
        at,
        entry.type,
        entry.actor ?? null,
        entry.machineId ?? null,
        entry.requestId ?? null,
        data ?? null,
        previous.toString('hex'),
      ],
    );
  }
}

interface AuditRow {
  seq: string | number;
  at: string | number;
  type: string;
  actor: string | null;
  machine_id: string | null;
  request_id: string | null;
  data: Record<string, unknown> | null;
  hash: string | null;
}

const toEntry = (r: AuditRow): HubAuditEntry => ({
  seq: num(r.seq),
  at: num(r.at),
  type: r.type,
  ...(r.actor !== null ? { actor: r.actor } : {}),
  ...(r.machine_id !== null ? { machineId: r.machine_id } : {}),
  ...(r.request_id !== null ? { requestId: r.request_id } : {}),
  ...(r.data !== null ? { data: r.data } : {}),
});

/** The newest entries first, of one type when given. */
export async function queryAudit(
  sql: Sql,
  o: { type?: string; limit?: number } = {},
): Promise<HubAuditEntry[]> {
  const rows = await sql.query<AuditRow>(
    `SELECT * FROM audit WHERE ($1::text IS NULL OR type = $1) ORDER BY seq DESC LIMIT $2`,
    [o.type ?? null, o.limit ?? 200],
  );
  return rows.map(toEntry);
}

/** Up to `limit` entries after `afterSeq`, oldest first, each with its stored link (hex). */
export async function auditAfter(
  sql: Sql,
  afterSeq: number,
  limit: number,
): Promise<{ entry: HubAuditEntry; hash: string | undefined }[]> {
  const rows = await sql.query<AuditRow>(
    'SELECT * FROM audit WHERE seq > $1 ORDER BY seq LIMIT $2',
    [afterSeq, limit],
  );
  return rows.map((r) => ({ entry: toEntry(r), hash: r.hash ?? undefined }));
}
