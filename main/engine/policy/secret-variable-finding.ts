import type { ShellAnalysis } from '../../../shared/tools/shell-syntax';
import { namedSecretVariable } from '../../../shared/tools/secret-variables';
import type { ActionDescription, Classification } from './classification';

const RULE = 'protected:gatehouse_secret';

/**
 * A command that would show the agent one of Gatehouse's secret variables (a hub token
 * approves requests on the hub): one naming it, or, when the agent's environment holds one
 * (the hook says so), one printing the whole environment. Always asks, critical: no rule
 * settles it, as none settles a read of the admin token.
 */
export function secretVariableFinding(
  a: ActionDescription,
  analysis: ShellAnalysis | undefined,
): Classification | undefined {
  const named = a.command === undefined ? undefined : namedSecretVariable(a.command, analysis);
  if (named)
    return {
      tier: 'ask',
      rule: RULE,
      reason: `the command names ${named}, Gatehouse's own secret: whoever reads its value can decide requests, so this always asks`,
      risk: 'critical',
    };
  const held = a.secretVariables?.[0];
  if (held && analysis?.printsEnvironment)
    return {
      tier: 'ask',
      rule: RULE,
      reason: `the command prints every environment variable, and the agent's holds ${held}, Gatehouse's own secret: whoever reads its value can decide requests, so this always asks`,
      risk: 'critical',
    };
  return undefined;
}
