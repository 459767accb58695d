import { num, type Sql } from './sql';
import { toRequest, type HubRequest, type HubRequestRow } from './requests-repo';

export interface Escalation {
  machineId: string;
  requestId: string;
  ruleId: string;
  toGroup: string;
  at: number;
}

/** The escalation of a request, if it escalated. */
export async function escalationOf(
  sql: Sql,
  machineId: string,
  requestId: string,
): Promise<Escalation | undefined> {
  const [row] = await sql.query<{ rule_id: string; to_group: string; at: string | number }>(
    'SELECT rule_id, to_group, at FROM request_escalations WHERE machine_id = $1 AND request_id = $2',
    [machineId, requestId],
  );
  return row
    ? { machineId, requestId, ruleId: row.rule_id, toGroup: row.to_group, at: num(row.at) }
    : undefined;
}

/**
 * Requests that still wait for a person, published at or before `before`, with no hub
 * decision standing and no escalation yet: the candidates for escalation, oldest first.
 */
export async function unescalatedWaiting(
  sql: Sql,
  before: number,
  limit: number,
): Promise<HubRequest[]> {
  const rows = await sql.query<HubRequestRow>(
    `SELECT r.*, m.name FROM requests r JOIN machines m USING (machine_id)
     WHERE r.status IN ('pending', 'timed_out') AND r.created_at <= $1 AND m.revoked_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM request_escalations e
                       WHERE e.machine_id = r.machine_id AND e.request_id = r.request_id)
       AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.machine_id = r.machine_id
                       AND d.request_id = r.request_id AND d.outcome IS DISTINCT FROM 'refused')
     ORDER BY r.created_at, r.request_id LIMIT $2`,
    [before, limit],
  );
  return rows.map(toRequest);
}

/** Records an escalation once; a second (another replica's round) records nothing (false). */
export async function insertEscalation(sql: Sql, e: Escalation): Promise<boolean> {
  const rows = await sql.query(
    `INSERT INTO request_escalations (machine_id, request_id, rule_id, to_group, at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING request_id`,
    [e.machineId, e.requestId, e.ruleId, e.toGroup, e.at],
  );
  return rows.length > 0;
}

/** Marks an escalation paged; answers false when it already was (it is paged once). */
export async function markPaged(
  sql: Sql,
  machineId: string,
  requestId: string,
  now: number,
): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE request_escalations SET paged_at = $3
     WHERE machine_id = $1 AND request_id = $2 AND paged_at IS NULL RETURNING request_id`,
    [machineId, requestId, now],
  );
  return rows.length > 0;
}
