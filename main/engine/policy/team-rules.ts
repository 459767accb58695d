import { matchersCover } from '../../../shared/policy/rule-match';
import { maskSecrets } from '../../../shared/request-picture/mask-secrets';
import { describeRule } from '../../../shared/rule-words';
import {
  teamRuleString,
  type ShadowRecord,
  type TeamRule,
} from '../../../shared/policy/team-policy';
import type { ActionDescription, Classification, TeamPolicyView } from './classification';

export type { TeamPolicySource, TeamPolicyView } from './classification';

/** True for the rule string of a call a team rule decided (locked like a protected path). */
export const isTeamRule = (rule: string): boolean => rule.startsWith('team:');

const matching = (
  rules: readonly TeamRule[],
  a: ActionDescription,
  project: string | undefined,
  mode: TeamRule['mode'],
  dirs: readonly string[] | undefined,
): TeamRule[] =>
  rules.filter(
    (r) =>
      r.mode === mode &&
      r.action === a.action &&
      // A team rule only asks or denies: it applies if a word may be opened where it matches.
      (dirs?.length
        ? dirs.some((d) => matchersCover(r, { action: a, project, dirs: [d] }))
        : matchersCover(r, { action: a, project })),
  );

/** A deny outranks an ask: the strictest matching rule speaks. */
const strictest = (rules: readonly TeamRule[]): TeamRule | undefined =>
  rules.find((r) => r.tier === 'deny') ?? rules[0];

/**
 * The team's say on an action, before anything of the person's or the project's is read:
 * a matching enforced rule asks (no rule, project file, grant or ladder of this machine makes
 * it `auto`; only a person's own approval of the request lets it through) or denies.
 */
export function teamFinding(
  a: ActionDescription,
  team: TeamPolicyView | undefined,
  project: string | undefined,
  /** Where the action's relative words are opened (protected-paths.ts wordDirectories). */
  dirs?: readonly string[],
): Classification | undefined {
  if (!team) return undefined;
  const rule = strictest(matching(team.rules, a, project, 'enforce', dirs));
  if (!rule) return undefined;
  const said = rule.tier === 'deny' ? 'denied' : 'always asks';
  return {
    tier: 'ask',
    ...(rule.tier === 'deny' ? { deny: true } : {}),
    rule: teamRuleString(team.version, rule.ruleId),
    reason: `${said} by team policy v${team.version} (${rule.ruleId}: ${describeRule(rule)})${rule.note ? `: ${rule.note}` : ''}`,
  };
}

/** What a call got, in a shadow record's words. */
const outcomeOf = (c: Classification): ShadowRecord['actual'] => (c.deny ? 'deny' : c.tier);

/**
 * A readable example of the call: its command, else its target, else its first path. It goes
 * to the hub, so its secrets are masked (as the hub's copy of a request is), before it is cut:
 * a cut token would no longer be recognised. Masked as a command (mask-secrets.ts, `shell`),
 * as the hub masks it again on arrival.
 */
const summaryOf = (a: ActionDescription): string =>
  maskSecrets(a.command ?? a.target ?? a.paths?.[0] ?? a.action, { shell: true }).slice(0, 300);

/**
 * The shadow rules that would have decided this call differently from what it got: an ask
 * where it went through, a deny where it was let through or asked. One per rule.
 */
export function shadowDifferences(
  a: ActionDescription,
  c: Classification,
  team: TeamPolicyView | undefined,
  project: string | undefined,
  dirs?: readonly string[],
): Omit<ShadowRecord, 'id' | 'at' | 'agent'>[] {
  if (!team) return [];
  const actual = outcomeOf(c);
  return matching(team.rules, a, project, 'shadow', dirs)
    .filter((r) => (r.tier === 'deny' ? actual !== 'deny' : actual === 'auto'))
    .map((r) => ({
      ruleId: r.ruleId,
      version: team.version,
      action: a.action,
      would: r.tier,
      actual,
      summary: summaryOf(a),
    }));
}
