import type { ShellAnalysis } from '../../../shared/tools/shell-syntax';
import { shownSecretVariable } from '../../../shared/tools/secret-variables';
import type { ActionDescription, Classification } from './classification';

const RULE = 'protected:gatehouse_secret';

/**
 * A command that would show the agent one of Gatehouse's secret variables (a hub token
 * approves requests on the hub): one naming it, or, when the agent's environment holds one
 * (the hook says so, or cannot see it), one printing the whole environment. Always asks,
 * critical: no rule settles it, as none settles a read of the admin token.
 */
export function secretVariableFinding(
  a: ActionDescription,
  analysis: ShellAnalysis | undefined,
): Classification | undefined {
  const shown =
    a.command === undefined
      ? undefined
      : shownSecretVariable(a.command, analysis, a.secretVariables);
  if (!shown) return undefined;
  const what =
    shown.how === 'named'
      ? `the command names ${shown.name}`
      : `the command prints every environment variable, and the agent's may hold ${shown.name}`;
  return {
    tier: 'ask',
    rule: RULE,
    reason: `${what}, Gatehouse's own secret: whoever reads its value can decide requests, so this always asks`,
    risk: 'critical',
  };
}
