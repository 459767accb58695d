import { z } from 'zod';
import { DecisionChannel, type DecidedBy, type RequestStatus } from './domain';
import { parseTeamRule, teamRuleString } from './policy/team-policy';

/**
 * Who or what decided a request or let a call through. Stored and sent as it always was: a
 * request row's `decided_by` (the DecidedBy enum) and `decided_via` columns, and the rule
 * string that names what let a call through (`grant:<id>`, `ladder:level-2`,
 * `default:read_file`, `user:<rule id>`…). This file is the one place that reads and writes
 * those forms; everything else speaks in this union.
 *
 * - `person`: a human, through the channel the transport recorded (absent on old rows).
 * - `rule`: a rule of the person's or the project's (`user:`, `decision:`, `project:`, and any
 *   prefix this file does not know, as old rows may hold).
 * - `grant` / `envelope`: a grant a person's decision left, used up by this call; an envelope
 *   is a grant bounded by time, uses or spend. Both are stored as `grant:<id>`, so an
 *   envelope read back from a row is a `grant`.
 * - `ladder`: the automation ladder at its level. `policy`: Gatehouse's built-in table and
 *   checks or a project file's gate (`default:`, `policy:`, `shell:`, `protected:`, `watch:`).
 * - `team`: a rule of the team policy the hub pushed (`team:v<version>:<rule id>`): which
 *   version of the policy, and which of its rules, asked or denied.
 * - `system`: Gatehouse itself (cancelled on a kill, abandoned, a stopped agent's call).
 * - `timeout`: the waiting agent's timeout passed; nobody decided, the request still waits.
 */
export const Provenance = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('person'), via: DecisionChannel.optional() }),
  z.object({ kind: z.literal('rule'), rule: z.string().min(1) }),
  z.object({ kind: z.literal('grant'), grantId: z.string().min(1) }),
  z.object({ kind: z.literal('envelope'), grantId: z.string().min(1) }),
  z.object({ kind: z.literal('ladder'), level: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('policy'), rule: z.string().min(1) }),
  z.object({
    kind: z.literal('team'),
    version: z.number().int().positive(),
    ruleId: z.string().min(1),
  }),
  z.object({ kind: z.literal('system') }),
  z.object({ kind: z.literal('timeout') }),
]);
export type Provenance = z.infer<typeof Provenance>;

/**
 * One approval of a hub decision a team rule made wait for a quorum: who, through which of
 * the hub's channels (`dashboard`, `cli`), and when. The hub signs the list with its decision;
 * the machine keeps it in the audit entry of the applied decision.
 */
export const HubApproval = z.object({
  person: z.string().min(1).max(64),
  via: z.enum(['dashboard', 'cli']),
  at: z.number().int(),
});
export type HubApproval = z.infer<typeof HubApproval>;
/** The provenances a rule string names (the others are a person, Gatehouse, a timeout). */
export type RuleProvenance = Extract<
  Provenance,
  { rule: string } | { grantId: string } | { level: number } | { kind: 'team' }
>;

const GRANT_PREFIX = 'grant:';
const LADDER_RULE = /^ladder:level-(\d+)$/;
/** Rule prefixes of Gatehouse's own table and checks, and of a project file's gate. */
const POLICY_RULE = /^(default|policy|shell|protected|watch|ladder):/;

/** What a rule string (`Classification.rule`, a request's `rule`) says let a call through. */
export function provenanceOfRule(rule: string): RuleProvenance {
  if (rule.startsWith(GRANT_PREFIX) && rule.length > GRANT_PREFIX.length)
    return { kind: 'grant', grantId: rule.slice(GRANT_PREFIX.length) };
  const ladder = LADDER_RULE.exec(rule);
  if (ladder) return { kind: 'ladder', level: Number(ladder[1]) };
  const team = parseTeamRule(rule);
  if (team) return { kind: 'team', ...team };
  return POLICY_RULE.test(rule) ? { kind: 'policy', rule } : { kind: 'rule', rule };
}

/** A grant that let an action through: an envelope is told apart while its kind is known. */
export const provenanceOfGrant = (g: { grantId: string; kind: string }): RuleProvenance =>
  g.kind === 'envelope'
    ? { kind: 'envelope', grantId: g.grantId }
    : { kind: 'grant', grantId: g.grantId };

/** The rule string of a provenance that has one (what `provenanceOfRule` reads back). */
export function ruleOf(p: RuleProvenance): string;
export function ruleOf(p: Provenance): string | undefined;
export function ruleOf(p: Provenance): string | undefined {
  switch (p.kind) {
    case 'grant':
    case 'envelope':
      return `${GRANT_PREFIX}${p.grantId}`;
    case 'ladder':
      return `ladder:level-${p.level}`;
    case 'team':
      return teamRuleString(p.version, p.ruleId);
    case 'rule':
    case 'policy':
      return p.rule;
    default:
      return undefined;
  }
}

/**
 * The stored and wire form of who decided: `decided_by` / `decidedBy` and, for a person, the
 * channel. A timeout decides nothing, so it has neither.
 */
export function decisionOf(p: Provenance): { decidedBy?: DecidedBy; decidedVia?: DecisionChannel } {
  switch (p.kind) {
    case 'person':
      return p.via === undefined
        ? { decidedBy: 'human' }
        : { decidedBy: 'human', decidedVia: p.via };
    case 'grant':
    case 'envelope':
      return { decidedBy: 'grant' };
    case 'ladder':
    case 'policy':
      return { decidedBy: 'policy' };
    case 'rule':
    case 'team':
      return { decidedBy: 'rule' };
    case 'system':
      return { decidedBy: 'system' };
    case 'timeout':
      return {};
  }
}

/** `decidedBy` alone, for the answers that carry no channel (an agent's, a gate's). */
export const decidedByOf = (p: Provenance): DecidedBy | undefined => decisionOf(p).decidedBy;

/** A request (stored row, record on the wire) as far as its provenance goes. */
export interface DecidedFields {
  status: RequestStatus;
  rule: string;
  decidedBy?: DecidedBy | null | undefined;
  decidedVia?: DecisionChannel | null | undefined;
}

/**
 * Who or what decided a request, read from its stored form; undefined while it waits with
 * nobody having decided (pending). Reads every row Gatehouse ever wrote: `decidedBy` comes
 * first, the rule names the grant or the ladder, and a row whose rule does not say more keeps
 * what `decidedBy` says (a grant row without `grant:` reads as a grant of unknown id).
 */
export function provenanceOfRequest(r: DecidedFields): Provenance | undefined {
  switch (r.decidedBy ?? undefined) {
    case 'human':
      return r.decidedVia ? { kind: 'person', via: r.decidedVia } : { kind: 'person' };
    case 'system':
      return { kind: 'system' };
    case 'rule': {
      const team = parseTeamRule(r.rule);
      return team ? { kind: 'team', ...team } : { kind: 'rule', rule: r.rule };
    }
    case 'grant': {
      const p = provenanceOfRule(r.rule);
      return p.kind === 'grant' ? p : { kind: 'grant', grantId: 'unknown' };
    }
    case 'policy': {
      const p = provenanceOfRule(r.rule);
      return p.kind === 'ladder' ? p : { kind: 'policy', rule: r.rule };
    }
    case undefined:
      return r.status === 'timed_out' ? { kind: 'timeout' } : undefined;
  }
}

/** Whether a person decided (the approvals the rule suggestions and reports learn from). */
export const byPerson = (r: Pick<DecidedFields, 'decidedBy'>): boolean => r.decidedBy === 'human';
