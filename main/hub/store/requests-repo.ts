import type { RequestRecord } from '../../../shared/domain';
import type { OutboxEntry } from '../../../shared/hub-protocol';
import { appendAudits, type HubAuditEntry } from './audit-repo';
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
  const audits: Omit<HubAuditEntry, 'seq' | 'at'>[] = [];
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
    } else if (entry.kind === 'request.pictured') {
      // Only the picture: the status stays what the machine's outcomes say.
      if (r.picture)
        await sql.query(
          `UPDATE requests SET record = jsonb_set(record, '{picture}', $3::jsonb), updated_at = $4
           WHERE machine_id = $1 AND request_id = $2`,
          [machineId, r.requestId, JSON.stringify(r.picture), now],
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
    audits.push({
      type: 'machine.published',
      machineId,
      requestId: r.requestId,
      data: { kind: entry.kind, seq: entry.seq, status: r.status },
    });
    last = entry.seq;
  }
  await sql.query('UPDATE machines SET last_seq = $2 WHERE machine_id = $1', [machineId, last]);
  // Last, once every row is written: the chain's lock is never held while waiting for a row.
  await appendAudits(sql, now, audits);
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

export interface HubRequestQuery {
  /** What a person still has to decide (`waiting`), or what is decided (`decided`). */
  waiting?: boolean;
  decided?: boolean;
  machineId?: string;
  requestId?: string;
  project?: string;
  agent?: string;
  /** Only these urgencies (the caller expands "at least"). */
  urgencies?: readonly string[];
  /** Only requests whose agent is still blocked waiting (pending, not timed out). */
  blocked?: boolean;
  limit?: number;
}

/** Requests across the team, newest first, with the standing hub decision of each. */
export async function listHubRequests(
  sql: Sql,
  o: HubRequestQuery = {},
): Promise<(HubRequest & { hubDecision?: { person: string; outcome?: 'applied' | 'refused' } })[]> {
  const rows = await sql.query<
    HubRequestRow & { d_person: string | null; d_outcome: string | null }
  >(
    `SELECT r.*, m.name, d.person AS d_person, d.outcome AS d_outcome
     FROM requests r JOIN machines m USING (machine_id)
     LEFT JOIN decisions d ON d.machine_id = r.machine_id AND d.request_id = r.request_id
       AND d.outcome IS DISTINCT FROM 'refused'
     WHERE ($1::boolean IS NOT TRUE OR r.status IN ('pending', 'timed_out'))
       AND ($2::text IS NULL OR r.machine_id = $2)
       AND ($3::boolean IS NOT TRUE OR r.status NOT IN ('pending', 'timed_out'))
       AND ($4::text IS NULL OR r.record->>'project' = $4)
       AND ($5::text IS NULL OR r.record->>'agent' = $5)
       AND ($6::text[] IS NULL OR r.record->>'urgency' = ANY($6::text[]))
       AND ($7::boolean IS NOT TRUE OR r.status = 'pending')
       AND ($9::text IS NULL OR r.request_id = $9)
     ORDER BY r.created_at DESC, r.request_id DESC LIMIT $8`,
    [
      o.waiting ?? false,
      o.machineId ?? null,
      o.decided ?? false,
      o.project ?? null,
      o.agent ?? null,
      o.urgencies ? [...o.urgencies] : null,
      o.blocked ?? false,
      o.limit ?? 500,
      o.requestId ?? null,
    ],
  );
  return rows.map((r) => ({
    ...toRequest(r),
    ...(r.d_person !== null
      ? {
          hubDecision: {
            person: r.d_person,
            ...(r.d_outcome === 'applied' || r.d_outcome === 'refused'
              ? { outcome: r.d_outcome }
              : {}),
          },
        }
      : {}),
  }));
}
