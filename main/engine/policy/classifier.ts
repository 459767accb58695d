import type { Risk, RuleRecord, Tier } from '../../../shared/domain';
import { DEFAULT_ACTIONS, FILE_WRITE_ACTIONS } from './default-actions';
import { demotionByGate, promotionByGate } from './policy-gate';
import type { ProjectPolicy } from './project-policy';
import { guardedPathFinding, type PathContext } from './protected-paths';

export interface ActionDescription {
  action: string;
  target?: string;
  command?: string;
  paths?: string[];
  risk?: Risk;
}

export interface Classification {
  tier: Tier;
  /** The rule that decided, e.g. `default:read_file`, `user:r-…`, `policy:blocked_commands`. */
  rule: string;
  reason: string;
  /** Set when the finding carries a risk of its own (protected paths: critical). */
  risk?: Risk;
}

export interface ClassifyContext {
  project?: string;
  projectPolicy?: ProjectPolicy;
  rules: readonly RuleRecord[];
  /** Protected and secret paths (protected-paths.ts); absent, only action names are checked. */
  paths?: PathContext;
}

/**
 * Decides the tier of an action, most specific first: the project's policy gate, the
 * project's own rules, the user's rules (project-scoped before global, newest first),
 * promotions by the gate, then the built-in table. Unknown actions ask.
 */
export function classifyAction(a: ActionDescription, ctx: ClassifyContext): Classification {
  const guarded = guardedPathFinding(a, ctx, matchingUserRule);
  if (guarded) return guarded;
  const pp = ctx.projectPolicy;
  if (pp) {
    const demoted = demotionByGate(a, pp, ctx.project);
    if (demoted) return demoted;
    if (pp.policy.rules.require_permission.includes(a.action)) {
      return {
        tier: 'ask',
        rule: 'project:require_permission',
        reason: `${pp.file} requires permission for ${a.action}`,
      };
    }
    if (pp.policy.rules.allow_without_permission.includes(a.action)) {
      return {
        tier: 'auto',
        rule: 'project:allow_without_permission',
        reason: `${pp.file} allows ${a.action} without permission`,
      };
    }
  }
  const rule = matchingUserRule(a, ctx);
  if (rule) {
    const where = rule.project ? ` in ${rule.project}` : '';
    const how = rule.tier === 'auto' ? 'allowed without asking' : 'always asks';
    return {
      tier: rule.tier,
      rule: `${rule.source === 'decision' ? 'decision' : 'user'}:${rule.ruleId}`,
      reason: `${a.action}${rule.target ? ` on ${rule.target}` : ''} is ${how}${where} by ${rule.source === 'decision' ? 'an "always" decision' : 'a user rule'}`,
    };
  }
  if (pp) {
    const promoted = promotionByGate(
      { ...a, isFileWrite: FILE_WRITE_ACTIONS.has(a.action) },
      pp,
      ctx.project,
    );
    if (promoted) return promoted;
  }
  const builtIn = DEFAULT_ACTIONS[a.action];
  if (builtIn) return { tier: builtIn.tier, rule: `default:${a.action}`, reason: builtIn.why };
  return {
    tier: 'ask',
    rule: 'default:unknown',
    reason: `${a.action} is not a known action; unknown actions ask`,
  };
}

function matchingUserRule(a: ActionDescription, ctx: ClassifyContext): RuleRecord | undefined {
  const candidates = ctx.rules.filter(
    (r) =>
      r.action === a.action &&
      (r.project === undefined || r.project === ctx.project) &&
      (r.target === undefined || r.target === a.target),
  );
  // Most specific first (project, then target), then the newest.
  const score = (r: RuleRecord): number => (r.project ? 2 : 0) + (r.target ? 1 : 0);
  return candidates.sort(
    (x, y) => score(y) - score(x) || y.createdAt.localeCompare(x.createdAt),
  )[0];
}
