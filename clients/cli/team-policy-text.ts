import type { RuleMatchers } from '../../shared/domain';
import type { TeamPolicyInfo, TeamRule } from '../../shared/policy/team-policy';
import { table } from './format';

const when = (ms: number | undefined): string =>
  ms === undefined ? '?' : new Date(ms).toISOString();

/**
 * One line for `gatehouse status` and `gatehouse rules`: which team policy version this
 * machine runs (from its hub), how many rules it enforces and shadows, and a refused bundle.
 */
export function teamPolicyLine(t: TeamPolicyInfo): string {
  const runs =
    t.version > 0
      ? `Team policy: version ${t.version} (published ${when(t.publishedAt)}): ${t.enforced} enforced, ${t.shadow} in shadow; it outranks your rules and project files`
      : 'Team policy: none';
  const refused = t.lastRefused
    ? `; REFUSED a bundle at ${when(t.lastRefused.at)}: ${t.lastRefused.reason}`
    : '';
  return `${runs}${refused}`;
}

/**
 * A rule's matchers as the rule tables show them (a machine's rules and the team's);
 * `none` for a rule without any, which covers its whole action.
 */
export function ruleMatchesText(r: RuleMatchers, none: string): string {
  const parts: string[] = [];
  if (r.command) parts.push(`command \`${r.command}\``);
  if (r.commandPrefix) parts.push(`command \`${r.commandPrefix}:*\``);
  if (r.target) parts.push(`target ${r.target}`);
  if (r.paths) parts.push(`paths ${r.paths.join(', ')}`);
  return parts.length ? parts.join('; ') : none;
}

/**
 * The team's rules as a table, on a machine (`gatehouse rules`) and on the hub's host
 * (`gatehouse hub policy list`); `idHeader` names the first column, `none` as in
 * ruleMatchesText.
 */
export function teamRulesTable(idHeader: string, rules: readonly TeamRule[], none: string): string {
  return table(
    [idHeader, 'ACTION', 'TIER', 'MATCHES', 'PROJECT', 'MODE', 'NOTE'],
    rules.map((r) => [
      r.ruleId,
      r.action,
      r.tier,
      ruleMatchesText(r, none),
      r.project ?? '(all)',
      r.mode,
      r.note ?? '',
    ]),
  );
}
