import type { TeamPolicyInfo } from '../../shared/policy/team-policy';

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
