import { num, type Sql } from './sql';

/** One person's vote on a request, through one channel, at one time. */
export interface RequestVote {
  personId: string;
  person: string;
  vote: 'approve' | 'deny';
  channel: string;
  ruleId: string;
  at: number;
}

interface Row {
  person_id: string;
  person: string;
  vote: 'approve' | 'deny';
  channel: string;
  rule_id: string;
  at: string | number;
}

/**
 * Records a person's vote on a request; their first vote stands (the key is the person), so
 * a repeat through any channel or replica changes nothing. Answers whether it was recorded.
 */
export async function recordVote(
  sql: Sql,
  v: RequestVote & { machineId: string; requestId: string },
): Promise<boolean> {
  const rows = await sql.query(
    `INSERT INTO request_votes (machine_id, request_id, person_id, person, vote, channel, rule_id, at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING person_id`,
    [v.machineId, v.requestId, v.personId, v.person, v.vote, v.channel, v.ruleId, v.at],
  );
  return rows.length > 0;
}

/** The votes on a request, in the order they came. */
export async function votesOn(
  sql: Sql,
  machineId: string,
  requestId: string,
): Promise<RequestVote[]> {
  const rows = await sql.query<Row>(
    `SELECT person_id, person, vote, channel, rule_id, at FROM request_votes
     WHERE machine_id = $1 AND request_id = $2 ORDER BY at, person`,
    [machineId, requestId],
  );
  return rows.map((r) => ({
    personId: r.person_id,
    person: r.person,
    vote: r.vote,
    channel: r.channel,
    ruleId: r.rule_id,
    at: num(r.at),
  }));
}

/** Clears the votes of a request whose decision its machine refused, so people can vote again. */
export async function clearVotes(sql: Sql, machineId: string, requestId: string): Promise<void> {
  await sql.query('DELETE FROM request_votes WHERE machine_id = $1 AND request_id = $2', [
    machineId,
    requestId,
  ]);
}

/**
 * The requests of a machine that have votes and still wait with no hub decision standing:
 * the quorums a machine that links again hears the count of.
 */
export async function requestsWithOpenVotes(sql: Sql, machineId: string): Promise<string[]> {
  const rows = await sql.query<{ request_id: string }>(
    `SELECT DISTINCT v.request_id FROM request_votes v
     JOIN requests r ON r.machine_id = v.machine_id AND r.request_id = v.request_id
     WHERE v.machine_id = $1 AND r.status IN ('pending', 'timed_out')
       AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.machine_id = v.machine_id
                       AND d.request_id = v.request_id AND d.outcome IS DISTINCT FROM 'refused')
     ORDER BY v.request_id`,
    [machineId],
  );
  return rows.map((r) => r.request_id);
}
