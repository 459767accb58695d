import { governingRule } from '../../shared/hub-decision-rules';
import { subjectOf } from './quorum';
import type { HubAuditEntry } from './store/audit-repo';
import { listDecisionRules } from './store/decision-rules-repo';
import { insertEscalation, unescalatedWaiting } from './store/escalations-repo';
import type { HubRequest } from './store/requests-repo';
import type { Sql } from './store/sql';

/** How many waiting requests one round looks at. */
const ROUND_LIMIT = 200;

export interface Escalated {
  request: HubRequest;
  ruleId: string;
  toGroup: string;
  afterMinutes: number;
}

/** The audit entry of an escalation, appended by the caller last in its transaction. */
export const escalationAudit = (e: Escalated): Omit<HubAuditEntry, 'seq' | 'at'> => ({
  type: 'request.escalated',
  machineId: e.request.machineId,
  requestId: e.request.requestId,
  data: { rule: e.ruleId, to: e.toGroup, afterMinutes: e.afterMinutes },
});

/**
 * Escalates, in the caller's transaction, each waiting request whose governing team rule says
 * to after its time without a decision: the escalation group may decide it from now on. Each
 * request escalates once (its key), so a round on another replica finds nothing to do; the
 * caller audits what this round escalated (`escalationAudit`, last in its transaction, as
 * the hub's chain asks) and pages it after it committed.
 */
export async function escalateDue(sql: Sql, now: number): Promise<Escalated[]> {
  const rules = await listDecisionRules(sql);
  const afters = rules.flatMap((r) =>
    r.escalateAfterMinutes !== undefined ? [r.escalateAfterMinutes * 60_000] : [],
  );
  if (afters.length === 0) return [];
  const escalated: Escalated[] = [];
  for (const request of await unescalatedWaiting(sql, now - Math.min(...afters), ROUND_LIMIT)) {
    const rule = governingRule(rules, subjectOf(request));
    if (!rule?.escalateTo || rule.escalateAfterMinutes === undefined) continue;
    if (request.createdAt + rule.escalateAfterMinutes * 60_000 > now) continue;
    const e = {
      machineId: request.machineId,
      requestId: request.requestId,
      ruleId: rule.ruleId,
      toGroup: rule.escalateTo,
      at: now,
    };
    if (!(await insertEscalation(sql, e))) continue;
    escalated.push({
      request,
      ruleId: rule.ruleId,
      toGroup: rule.escalateTo,
      afterMinutes: rule.escalateAfterMinutes,
    });
  }
  return escalated;
}
