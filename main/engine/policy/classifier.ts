import type { RuleRecord } from '../../../shared/domain';
import { DEFAULT_ACTIONS, FILE_WRITE_ACTIONS } from '../../../shared/policy/default-actions';
import { promotionByGate } from './policy-gate';
import {
  describeRule,
  matchersCover,
  placedIn,
  specificity,
} from '../../../shared/policy/rule-match';
import type { ActionDescription, Classification, ClassifyContext } from './classification';
import { guardedPathFinding, wordDirectories } from './protected-paths';
import { sandboxEscapeFinding } from './sandbox-escape';
import { pathGlobsStayInScope } from './rule-scope';
import {
  projectRestriction,
  projectRulePromotion,
  untrustedReason,
  wouldPromote,
} from './project-trust';
import { own } from '../../../shared/own';
import { teamFinding } from './team-rules';

export type { ActionDescription, Classification, ClassifyContext } from './classification';

/**
 * Decides the tier of an action: the team policy first (team-rules.ts), then most specific
 * first: the project's restrictions (its gate,
 * `allowed_commands` as a limit, `require_permission`), the project's own promotions if the
 * person trusts the file, the user's rules (project-scoped before global, newest first),
 * promotions by the gate (trusted files only), then the built-in table. Unknown actions ask.
 */
export function classifyAction(a: ActionDescription, ctx: ClassifyContext): Classification {
  // Where the action's relative words are opened: every rule's paths are read there.
  const dirs = wordDirectories(a, ctx);
  // The team's rules outrank everything of this machine's: they only ask or deny.
  const team = teamFinding(a, ctx.team, ctx.project, dirs);
  if (team) return team;
  // Leaving the agent's sandbox is for a person to allow, before any other rule is read.
  const escape = sandboxEscapeFinding(a, ctx, dirs);
  if (escape) return escape;
  const guarded = guardedPathFinding(a, ctx, matchingUserRule);
  if (guarded) return guarded;
  const pp = ctx.projectPolicy;
  // Restrictions apply whoever wrote the file; promotions only for content the person trusted.
  const trusted = ctx.projectTrust === 'trusted';
  // The project file's globs see each word where it is opened, as a rule's do.
  const placed = placedAction(a, dirs);
  const restricted =
    (pp && projectRestriction(placed, pp, ctx.project)) ??
    (ctx.trustedProjectPolicy && projectRestriction(placed, ctx.trustedProjectPolicy, ctx.project));
  if (restricted) return restricted;
  const promoted = pp && trusted ? projectRulePromotion(a, pp) : undefined;
  if (promoted) return promoted;
  const rule = matchingUserRule(a, ctx);
  if (rule) {
    const how = rule.tier === 'auto' ? 'allowed without asking' : 'always asks';
    const by = rule.source === 'decision' ? 'an "always" decision' : 'a user rule';
    return {
      tier: rule.tier,
      rule: `${rule.source === 'decision' ? 'decision' : 'user'}:${rule.ruleId}`,
      reason: `${how} by ${by}: ${describeRule(rule)}`,
    };
  }
  if (pp && trusted) {
    const promoted = promotionByGate(
      { ...placed, isFileWrite: FILE_WRITE_ACTIONS.has(a.action) },
      pp,
      ctx.project,
    );
    if (promoted) return promoted;
  }
  return withTrustNote(builtInTier(a), placed, ctx);
}

/**
 * The action with each relative path word placed in every directory it may be opened in
 * (rule-match.ts placedIn), for the project file's globs, which take paths as they come.
 */
function placedAction(
  a: ActionDescription,
  dirs: readonly string[] | undefined,
): ActionDescription {
  if (!a.paths?.length || !dirs?.length) return a;
  const paths = a.paths;
  return { ...a, paths: dirs.flatMap((d) => paths.map((p) => placedIn(p, d))) };
}

function builtInTier(a: ActionDescription): Classification {
  const builtIn = own(DEFAULT_ACTIONS, a.action);
  if (builtIn) return { tier: builtIn.tier, rule: `default:${a.action}`, reason: builtIn.why };
  return {
    tier: 'ask',
    rule: 'default:unknown',
    reason: `${a.action} is not a known action; unknown actions ask`,
  };
}

/** An untrusted file that would have let the action through says so, and how to trust it. */
function withTrustNote(
  c: Classification,
  a: ActionDescription,
  ctx: ClassifyContext,
): Classification {
  const pp = ctx.projectPolicy;
  if (!pp || c.tier !== 'ask' || ctx.projectTrust === 'trusted') return c;
  if (!wouldPromote({ ...a, isFileWrite: FILE_WRITE_ACTIONS.has(a.action) }, pp, ctx.project))
    return c;
  return {
    tier: 'ask',
    rule: 'project:untrusted',
    reason: `${c.reason}; ${untrustedReason(pp, ctx.projectTrust ?? 'untrusted')}`,
  };
}

function matchingUserRule(a: ActionDescription, ctx: ClassifyContext): RuleRecord | undefined {
  const candidates = ctx.rules.filter((r) => r.action === a.action);
  if (!candidates.length) return undefined;
  const dirs = wordDirectories(a, ctx);
  const input = { action: a, project: ctx.project, dirs };
  const matching = candidates.filter(
    (r) => matchersCover(r, input) && pathGlobsStayInScope(r, a, ctx.project, ctx.paths, dirs),
  );
  // Most specific first (the more matchers, the narrower), then the newest.
  return matching.sort(
    (x, y) => specificity(y) - specificity(x) || y.createdAt.localeCompare(x.createdAt),
  )[0];
}
