import { num, type Sql } from './sql';

export interface HubAuditEntry {
  seq: number;
  at: number;
  type: string;
  actor?: string;
  machineId?: string;
  requestId?: string;
  data?: Record<string, unknown>;
}

/** Appends one audit entry, in the caller's transaction when `sql` is one. */
export async function appendAudit(
  sql: Sql,
  at: number,
  entry: Omit<HubAuditEntry, 'seq' | 'at'>,
): Promise<void> {
  await sql.query(
    'INSERT INTO audit (at, type, actor, machine_id, request_id, data) VALUES ($1, $2, $3, $4, $5, $6)',
    [
      at,
      entry.type,
      entry.actor ?? null,
      entry.machineId ?? null,
      entry.requestId ?? null,
      entry.data ?? null,
    ],
  );
}

interface AuditRow {
  seq: string | number;
  at: string | number;
  type: string;
  actor: string | null;
  machine_id: string | null;
  request_id: string | null;
  data: Record<string, unknown> | null;
}

/** The newest entries first, of one type when given. */
export async function queryAudit(
  sql: Sql,
  o: { type?: string; limit?: number } = {},
): Promise<HubAuditEntry[]> {
  const rows = await sql.query<AuditRow>(
    `SELECT * FROM audit WHERE ($1::text IS NULL OR type = $1) ORDER BY seq DESC LIMIT $2`,
    [o.type ?? null, o.limit ?? 200],
  );
  return rows.map((r) => ({
    seq: num(r.seq),
    at: num(r.at),
    type: r.type,
    ...(r.actor !== null ? { actor: r.actor } : {}),
    ...(r.machine_id !== null ? { machineId: r.machine_id } : {}),
    ...(r.request_id !== null ? { requestId: r.request_id } : {}),
    ...(r.data !== null ? { data: r.data } : {}),
  }));
}
