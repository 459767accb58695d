import { byRequestAttention } from '../../../shared/queue-order';
import { toRequest, type HubRequest, type HubRequestRow } from './requests-repo';
import type { Sql } from './sql';

/** The most requests one listing considers: the queue is sorted in memory, by attention. */
const MAX_CONSIDERED = 5000;

/**
 * One page of the team's requests for `gatehouse --hub URL list`: the waiting ones in the
 * review queue's order (what needs a person first, as on every surface), or the history
 * newest first. `offset` is the cursor the CLI hands back.
 */
export async function hubRequestPage(
  sql: Sql,
  o: {
    waiting: boolean;
    agent?: string;
    machineId?: string;
    /** Only requests whose agent is connected (true) or gone (false); unknown counts as connected. */
    connected?: boolean;
    limit: number;
    offset: number;
  },
): Promise<{ requests: HubRequest[]; total: number }> {
  const rows = await sql.query<HubRequestRow>(
    `SELECT r.*, m.name FROM requests r JOIN machines m USING (machine_id)
     WHERE ($1::boolean IS NOT TRUE OR r.status IN ('pending', 'timed_out'))
       AND ($2::text IS NULL OR r.machine_id = $2)
       AND ($3::text IS NULL OR r.record->>'agent' = $3)
       AND ($4::boolean IS NULL OR COALESCE((r.record->>'agentConnected')::boolean, true) = $4)
     ORDER BY r.created_at DESC, r.request_id DESC LIMIT $5`,
    [o.waiting, o.machineId ?? null, o.agent ?? null, o.connected ?? null, MAX_CONSIDERED],
  );
  const all = rows.map(toRequest);
  if (o.waiting) all.sort((a, b) => byRequestAttention(a.record, b.record));
  return { requests: all.slice(o.offset, o.offset + o.limit), total: all.length };
}

/** Every machine's request with this id (ids are random, so almost always one). */
export async function hubRequestsById(sql: Sql, requestId: string): Promise<HubRequest[]> {
  const rows = await sql.query<HubRequestRow>(
    `SELECT r.*, m.name FROM requests r JOIN machines m USING (machine_id)
     WHERE r.request_id = $1 ORDER BY m.name`,
    [requestId],
  );
  return rows.map(toRequest);
}
