import type { DecisionRule } from '../../../shared/hub-decision-rules';
import type { Risk } from '../../../shared/domain';
import { num, type Sql } from './sql';

interface Row {
  rule_id: string;
  action: string | null;
  min_risk: Risk | null;
  project: string | null;
  machine: string | null;
  agent: string | null;
  groups: string[];
  approvals: number;
  exclude_owner: boolean;
  escalate_after_ms: string | number | null;
  escalate_to: string | null;
  created_at: string | number;
}

const toRule = (r: Row): DecisionRule => ({
  ruleId: r.rule_id,
  ...(r.action !== null ? { action: r.action } : {}),
  ...(r.min_risk !== null ? { minRisk: r.min_risk } : {}),
  ...(r.project !== null ? { project: r.project } : {}),
  ...(r.machine !== null ? { machine: r.machine } : {}),
  ...(r.agent !== null ? { agent: r.agent } : {}),
  groups: r.groups,
  approvals: num(r.approvals),
  excludeOwner: r.exclude_owner,
  ...(r.escalate_after_ms !== null
    ? { escalateAfterMinutes: num(r.escalate_after_ms) / 60_000 }
    : {}),
  ...(r.escalate_to !== null ? { escalateTo: r.escalate_to } : {}),
  createdAt: num(r.created_at),
});

export async function insertDecisionRule(sql: Sql, r: DecisionRule): Promise<void> {
  await sql.query(
    `INSERT INTO decision_rules (rule_id, action, min_risk, project, machine, agent, groups,
       approvals, exclude_owner, escalate_after_ms, escalate_to, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      r.ruleId,
      r.action ?? null,
      r.minRisk ?? null,
      r.project ?? null,
      r.machine ?? null,
      r.agent ?? null,
      r.groups,
      r.approvals,
      r.excludeOwner,
      r.escalateAfterMinutes !== undefined ? r.escalateAfterMinutes * 60_000 : null,
      r.escalateTo ?? null,
      r.createdAt,
    ],
  );
}

export async function deleteDecisionRule(sql: Sql, ruleId: string): Promise<boolean> {
  const rows = await sql.query('DELETE FROM decision_rules WHERE rule_id = $1 RETURNING rule_id', [
    ruleId,
  ]);
  return rows.length > 0;
}

/** Every rule, oldest first. */
export async function listDecisionRules(sql: Sql): Promise<DecisionRule[]> {
  const rows = await sql.query<Row>('SELECT * FROM decision_rules ORDER BY created_at, rule_id');
  return rows.map(toRule);
}
