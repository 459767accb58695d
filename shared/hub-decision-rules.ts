import { z } from 'zod';
import { Risk, RISK_ORDER } from './domain';
import { GroupName, MachineName } from './hub-protocol';

/**
 * Team decision rules on the hub: who may decide which requests, how many of them must
 * approve, and who is paged when nobody decides in time. A rule matches a request by every
 * field it sets (an unset field matches anything); a request no rule matches may be decided
 * by any approver, as before rules existed.
 */

const ActionName = z
  .string()
  .regex(/^[a-z][a-z0-9_.:-]{0,63}$/, 'an action name such as deploy or git_push');
const AgentName = z.string().min(1).max(200);
const ProjectName = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.includes('*'), 'a project path or name, not a pattern');

/** What a rule matches and what it asks for, as an admin writes it. */
export const DecisionRuleDraft = z
  .object({
    /** The request's action (deploy, git_push …). */
    action: ActionName.optional(),
    /** The request's risk is at least this. A request with no risk counts as low. */
    minRisk: Risk.optional(),
    /** The request's project: its whole path, or its last path segment (`prod` matches /srv/prod). */
    project: ProjectName.optional(),
    /** The machine that asked. */
    machine: MachineName.optional(),
    /** The agent that asked. */
    agent: AgentName.optional(),
    /** The groups whose members may decide (any of them). */
    groups: z.array(GroupName).min(1).max(10),
    /** How many approvals from those groups it takes; one denial denies. */
    approvals: z.number().int().min(1).max(10).default(1),
    /** The person who owns the machine that asked may not approve it. */
    excludeOwner: z.boolean().default(false),
    /** After this many minutes without a decision, the request goes to `escalateTo` too. */
    escalateAfterMinutes: z
      .number()
      .int()
      .positive()
      .max(7 * 24 * 60)
      .optional(),
    escalateTo: GroupName.optional(),
  })
  .strict()
  .refine((r) => (r.escalateAfterMinutes === undefined) === (r.escalateTo === undefined), {
    message: 'escalation needs both a time (minutes) and a group',
  })
  .refine((r) => r.escalateTo === undefined || !r.groups.includes(r.escalateTo), {
    message: 'the escalation group is already one of the deciding groups',
  });
export type DecisionRuleDraft = z.input<typeof DecisionRuleDraft>;

export const DecisionRule = z.object({
  ruleId: z.string(),
  action: z.string().optional(),
  minRisk: Risk.optional(),
  project: z.string().optional(),
  machine: z.string().optional(),
  agent: z.string().optional(),
  groups: z.array(z.string()),
  approvals: z.number().int(),
  excludeOwner: z.boolean(),
  escalateAfterMinutes: z.number().optional(),
  escalateTo: z.string().optional(),
  createdAt: z.number(),
});
export type DecisionRule = z.infer<typeof DecisionRule>;

/** What a rule is matched against: the request as its machine published it. */
export interface RuleSubject {
  machine: string;
  action: string;
  agent: string;
  project?: string | undefined;
  risk?: Risk | undefined;
}

const riskRank = (r: Risk | undefined): number => RISK_ORDER.indexOf(r ?? 'low');

const projectMatches = (want: string, project: string | undefined): boolean =>
  project !== undefined &&
  (project === want || project.replace(/\/+$/, '').split('/').pop() === want);

export function ruleMatches(rule: DecisionRule, s: RuleSubject): boolean {
  return (
    (rule.action === undefined || rule.action === s.action) &&
    (rule.minRisk === undefined || riskRank(s.risk) >= riskRank(rule.minRisk)) &&
    (rule.project === undefined || projectMatches(rule.project, s.project)) &&
    (rule.machine === undefined || rule.machine === s.machine) &&
    (rule.agent === undefined || rule.agent === s.agent)
  );
}

/**
 * The rule that governs a request: of those that match, the strictest (most approvals, then
 * one that leaves the owner out, then the oldest). Taking the strictest means adding a looser
 * rule never lowers what a stricter one asks.
 */
export function governingRule(
  rules: readonly DecisionRule[],
  s: RuleSubject,
): DecisionRule | undefined {
  return rules
    .filter((r) => ruleMatches(r, s))
    .sort(
      (a, b) =>
        b.approvals - a.approvals ||
        Number(b.excludeOwner) - Number(a.excludeOwner) ||
        a.createdAt - b.createdAt ||
        a.ruleId.localeCompare(b.ruleId),
    )[0];
}

/** A rule in words: what it matches and what it asks for. */
export function describeRule(r: DecisionRule): string {
  const what = [
    r.action ? `action ${r.action}` : 'any action',
    ...(r.minRisk ? [`risk ${r.minRisk} or more`] : []),
    ...(r.project ? [`project ${r.project}`] : []),
    ...(r.machine ? [`machine ${r.machine}`] : []),
    ...(r.agent ? [`agent ${r.agent}`] : []),
  ].join(', ');
  const who = `${r.approvals === 1 ? 'one approval' : `${r.approvals} approvals`} from ${r.groups.join(' or ')}`;
  return `${what}: ${who}${r.excludeOwner ? ", not the machine's owner" : ''}${
    r.escalateTo
      ? `; after ${r.escalateAfterMinutes} min without a decision, also ${r.escalateTo}`
      : ''
  }`;
}
