import type { RequestRecord } from '../../../shared/domain';
import type { OutboxEntry } from '../../../shared/hub-protocol';
import { appendAudit } from './audit-repo';
import { num, type Sql } from './sql';

export interface HubRequest {
  machineId: string;
  machineName: string;
  requestId: string;
  status: string;
  record: RequestRecord;
  createdAt: number;
  updatedAt: number;
}

export interface HubRequestRow {
  machine_id: string;
  name: string;
  request_id: string;
  status: string;
  record: RequestRecord;
  created_at: string | number;
  updated_at: string | number;
}

export const toRequest = (r: HubRequestRow): HubRequest => ({
  machineId: r.machine_id,
  machineName: r.name,
  requestId: r.request_id,
  status: r.status,
  record: r.record,
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at),
});

/**
 * Stores what a machine published, in its order, in the caller's transaction. Entries at or
 * below the machine's `last_seq` were stored before (a replay after a lost acknowledgement)
 * and are dropped; the machine row is locked, so two connections of one machine (an old one
 * on another replica not yet closed) cannot interleave. Returns the sequence number now
 * acknowledged.
 */
export async function storePublished(
  sql: Sql,
  machineId: string,
  entries: readonly OutboxEntry[],
  now: number,
): Promise<number> {
  const [machine] = await sql.query<{ last_seq: string | number }>(
    'SELECT last_seq FROM machines WHERE machine_id = $1 FOR UPDATE',
    [machineId],
  );
  let last = num(machine!.last_seq);
  for (const entry of entries) {
    if (entry.seq <= last) continue;
    const r = entry.request;
    if (entry.kind === 'request.asked') {
      // Keyed by request id: a request published twice (a machine re-joined, its outbox
      // replayed from the start) is one row.
      await sql.query(
        `INSERT INTO requests (machine_id, request_id, status, record, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (machine_id, request_id) DO NOTHING`,
        [machineId, r.requestId, r.status, r, now],
      );
    } else {
      await sql.query(
        `INSERT INTO requests (machine_id, request_id, status, record, created_at, updated_at, decided_via)
         VALUES ($1, $2, $3, $4, $5, $5, $6)
         ON CONFLICT (machine_id, request_id) DO UPDATE SET status = EXCLUDED.status,
           record = EXCLUDED.record, updated_at = EXCLUDED.updated_at, decided_via = EXCLUDED.decided_via`,
        [machineId, r.requestId, r.status, r, now, r.decidedVia ?? null],
      );
    }
    await appendAudit(sql, now, {
      type: 'machine.published',
      machineId,
      requestId: r.requestId,
      data: { kind: entry.kind, seq: entry.seq, status: r.status },
    });
    last = entry.seq;
  }
  await sql.query('UPDATE machines SET last_seq = $2 WHERE machine_id = $1', [machineId, last]);
  return last;
}

export async function getHubRequest(
  sql: Sql,
  machineId: string,
  requestId: string,
  o: { lock?: boolean } = {},
): Promise<HubRequest | undefined> {
  const [row] = await sql.query<HubRequestRow>(
    `SELECT r.*, m.name FROM requests r JOIN machines m USING (machine_id)
     WHERE r.machine_id = $1 AND r.request_id = $2${o.lock ? ' FOR UPDATE OF r' : ''}`,
    [machineId, requestId],
  );
  return row ? toRequest(row) : undefined;
}

/** Requests across the team, newest first; `waiting` for the ones a person still has to decide. */
export async function listHubRequests(
  sql: Sql,
  o: { waiting?: boolean; machineId?: string; limit?: number } = {},
): Promise<HubRequest[]> {
  const rows = await sql.query<HubRequestRow>(
    `SELECT r.*, m.name FROM requests r JOIN machines m USING (machine_id)
     WHERE ($1::boolean IS NOT TRUE OR r.status IN ('pending', 'timed_out'))
       AND ($2::text IS NULL OR r.machine_id = $2)
     ORDER BY r.created_at DESC, r.request_id DESC LIMIT $3`,
    [o.waiting ?? false, o.machineId ?? null, o.limit ?? 500],
  );
  return rows.map(toRequest);
}
