import type { RequestRecord } from '../../../shared/domain';
import type { OutboxEntry } from '../../../shared/hub-protocol';
import { RuleOffers, type RuleOffer } from '../../../shared/hub-rule-offers';
import { urgencyTimeline } from '../../../shared/queue-order';
import { appendAudits, type HubAuditEntry } from './audit-repo';
import { attentionRankSql, rankedUrgencySql } from './attention-sql';
import { num, type Sql } from './sql';

export interface HubRequest {
  machineId: string;
  machineName: string;
  requestId: string;
  status: string;
  record: RequestRecord;
  createdAt: number;
  updatedAt: number;
  /** The rules its machine offers for a session, envelope or "always" approval. */
  offers?: RuleOffer[];
}

export interface HubRequestRow {
  machine_id: string;
  name: string;
  request_id: string;
  status: string;
  record: RequestRecord;
  created_at: string | number;
  updated_at: string | number;
  rule_offers?: unknown;
}

export const toRequest = (r: HubRequestRow): HubRequest => {
  // Checked when published; checked again so a row edited in the database offers nothing.
  const offers = RuleOffers.safeParse(r.rule_offers);
  return {
    machineId: r.machine_id,
    machineName: r.name,
    requestId: r.request_id,
    status: r.status,
    record: r.record,
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
    ...(offers.success ? { offers: offers.data } : {}),
  };
};

/** The ranked urgency columns of a row from its newest record (migration 013). */
const urgencyColumns = (r: RequestRecord): [string, string, number] => {
  const t = urgencyTimeline(r);
  return [t.filed, t.later, t.laterAt];
};

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
  // FOR NO KEY UPDATE, not FOR UPDATE: the row is locked against another publish of the
  // machine, not against rows that only name it. A decision on one of its requests holds
  // that request's row and stores a row whose machine must exist (PostgreSQL takes a KEY
  // SHARE lock on the machine for it); FOR UPDATE blocks that while this publish waits for
  // the request's row, and PostgreSQL ended one of the two: "deadlock detected".
  const [machine] = await sql.query<{ last_seq: string | number }>(
    'SELECT last_seq FROM machines WHERE machine_id = $1 FOR NO KEY UPDATE',
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
        `INSERT INTO requests (machine_id, request_id, status, record, created_at, updated_at, rule_offers,
           urgency_filed, urgency_later, urgency_later_at)
         VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9) ON CONFLICT (machine_id, request_id) DO NOTHING`,
        [
          machineId,
          r.requestId,
          r.status,
          r,
          now,
          entry.offers ? JSON.stringify(entry.offers) : null,
          ...urgencyColumns(r),
        ],
      );
    } else if (entry.kind === 'request.pictured') {
      // Only the picture: the status stays what the machine's outcomes say.
      if (r.picture)
        await sql.query(
          // A force push or a push to main, seen in the picture, makes it more urgent.
          `UPDATE requests SET record = jsonb_set(record, '{picture}', $3::jsonb), updated_at = $4,
             urgency_filed = $5, urgency_later = $6, urgency_later_at = $7
           WHERE machine_id = $1 AND request_id = $2`,
          [machineId, r.requestId, JSON.stringify(r.picture), now, ...urgencyColumns(r)],
        );
    } else {
      await sql.query(
        `INSERT INTO requests (machine_id, request_id, status, record, created_at, updated_at, decided_via,
           urgency_filed, urgency_later, urgency_later_at)
         VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9)
         ON CONFLICT (machine_id, request_id) DO UPDATE SET status = EXCLUDED.status,
           record = EXCLUDED.record, updated_at = EXCLUDED.updated_at, decided_via = EXCLUDED.decided_via,
           urgency_filed = EXCLUDED.urgency_filed, urgency_later = EXCLUDED.urgency_later,
           urgency_later_at = EXCLUDED.urgency_later_at`,
        [machineId, r.requestId, r.status, r, now, r.decidedVia ?? null, ...urgencyColumns(r)],
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
  /**
   * Now (ms): urgencies are the inferred ones at this time (the filter and the order), and
   * waiting requests come in the review queue's order. Absent: the agent's own urgencies.
   */
  now?: number;
}

/**
 * Requests across the team with the standing hub decision of each: with `waiting` and `now`,
 * in the review queue's order (what needs a person first, the urgency inferred as on the
 * machine); otherwise newest first.
 */
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
       AND ($6::text[] IS NULL OR ${rankedUrgencySql('$10')} = ANY($6::text[]))
       AND ($7::boolean IS NOT TRUE OR r.status = 'pending')
       AND ($9::text IS NULL OR r.request_id = $9)
     ORDER BY ${
       o.waiting && o.now !== undefined
         ? `${attentionRankSql('$10')} DESC, (r.record->>'createdAt') COLLATE "C", r.request_id COLLATE "C"`
         : 'r.created_at DESC, r.request_id DESC'
     } LIMIT $8`,
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
      // Without a time, no row's later urgency applies (filed ones are the agent's own, or
      // inferred at filing): the far past.
      o.now ?? 0,
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
