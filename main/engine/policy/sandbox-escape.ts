import type { RuleRecord } from '../../../shared/domain';
import { matchersCover } from '../../../shared/policy/rule-match';
import { LEAVE_SANDBOX } from '../../../shared/tools/sandbox-escape';
import type { ActionDescription, Classification, ClassifyContext } from './classification';
import { PROTECTED_RULE_PREFIX } from './protected-paths';

/** The rule of an agent's own request to leave its sandbox: critical, settled only once. */
export const LEAVE_SANDBOX_RULE = `${PROTECTED_RULE_PREFIX}${LEAVE_SANDBOX}`;

/**
 * An agent asking to run a command outside its OS sandbox (`leave_sandbox`, from
 * shared/tools/sandbox-escape.ts). Only a person lets that through: their approval of that
 * one request (the `protected:` rule: no grant, envelope, ladder or "always" settles it), or
 * a rule they wrote themselves (`gatehouse rules add leave_sandbox --tier auto --command …`)
 * naming that exact command. A rule for every command, a project file's promotion, an
 * "always" decision or a command prefix never does: a sandbox escape is judged call by call.
 */
export function sandboxEscapeFinding(
  a: ActionDescription,
  ctx: Pick<ClassifyContext, 'rules' | 'project'>,
  /** Where the action's relative words are opened (protected-paths.ts wordDirectories). */
  dirs?: readonly string[],
): Classification | undefined {
  if (a.action !== LEAVE_SANDBOX) return undefined;
  const own = ctx.rules.find(
    (r: RuleRecord) =>
      r.action === LEAVE_SANDBOX &&
      r.source === 'user' &&
      r.tier === 'auto' &&
      r.command !== undefined &&
      a.command !== undefined &&
      matchersCover(r, { action: a, project: ctx.project, dirs }),
  );
  if (own)
    return {
      tier: 'auto',
      rule: `user:${own.ruleId}`,
      reason: `allowed outside the sandbox by your rule for exactly this command`,
    };
  return {
    tier: 'ask',
    rule: LEAVE_SANDBOX_RULE,
    reason:
      "asks to run outside Claude Code's sandbox, where Gatehouse's files and the network are open to it; only you can approve that, once, or with a rule of yours for this exact command",
    risk: 'critical',
  };
}
