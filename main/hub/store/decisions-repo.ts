import { num, type Sql } from './sql';

export interface DecisionRow {
  decisionId: string;
  machineId: string;
  requestId: string;
  person: string;
  payload: string;
  signature: string;
  createdAt: number;
  answeredAt?: number;
  outcome?: string;
  detail?: string;
}

interface Row {
  decision_id: string;
  machine_id: string;
  request_id: string;
  person: string;
  payload: string;
  signature: string;
  created_at: string | number;
  answered_at: string | number | null;
  outcome: string | null;
  detail: string | null;
}

const toDecision = (r: Row): DecisionRow => ({
  decisionId: r.decision_id,
  machineId: r.machine_id,
  requestId: r.request_id,
  person: r.person,
  payload: r.payload,
  signature: r.signature,
  createdAt: num(r.created_at),
  ...(r.answered_at !== null ? { answeredAt: num(r.answered_at) } : {}),
  ...(r.outcome !== null ? { outcome: r.outcome } : {}),
  ...(r.detail !== null ? { detail: r.detail } : {}),
});

/** Stores a decision unless the request has one standing (not refused by the machine): the first wins. */
export async function insertDecision(
  sql: Sql,
  d: Omit<DecisionRow, 'answeredAt' | 'outcome' | 'detail'>,
): Promise<boolean> {
  const rows = await sql.query(
    `INSERT INTO decisions (decision_id, machine_id, request_id, person, payload, signature, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (machine_id, request_id) WHERE outcome IS DISTINCT FROM 'refused' DO NOTHING
     RETURNING decision_id`,
    [d.decisionId, d.machineId, d.requestId, d.person, d.payload, d.signature, d.createdAt],
  );
  return rows.length > 0;
}

/** The decision standing for a request: the one its machine did not refuse. */
export async function decisionFor(
  sql: Sql,
  machineId: string,
  requestId: string,
): Promise<DecisionRow | undefined> {
  const [row] = await sql.query<Row>(
    `SELECT * FROM decisions WHERE machine_id = $1 AND request_id = $2 AND outcome IS DISTINCT FROM 'refused'`,
    [machineId, requestId],
  );
  return row ? toDecision(row) : undefined;
}

export async function getDecision(sql: Sql, decisionId: string): Promise<DecisionRow | undefined> {
  const [row] = await sql.query<Row>('SELECT * FROM decisions WHERE decision_id = $1', [
    decisionId,
  ]);
  return row ? toDecision(row) : undefined;
}

/** Decisions the machine has not answered yet, oldest first: sent again on every connect. */
export async function unansweredDecisions(sql: Sql, machineId: string): Promise<DecisionRow[]> {
  const rows = await sql.query<Row>(
    'SELECT * FROM decisions WHERE machine_id = $1 AND answered_at IS NULL ORDER BY created_at',
    [machineId],
  );
  return rows.map(toDecision);
}

/** Records the machine's answer once; a repeated answer changes nothing (false). */
export async function answerDecision(
  sql: Sql,
  o: {
    decisionId: string;
    machineId: string;
    outcome: string;
    detail?: string | undefined;
    now: number;
  },
): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE decisions SET answered_at = $3, outcome = $4, detail = $5
     WHERE decision_id = $1 AND machine_id = $2 AND answered_at IS NULL RETURNING decision_id`,
    [o.decisionId, o.machineId, o.now, o.outcome, o.detail ?? null],
  );
  return rows.length > 0;
}
