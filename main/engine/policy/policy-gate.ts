import picomatch from 'picomatch';
import { RISK_ORDER, type Risk } from '../../../shared/domain';
import type { ProjectPolicy } from './project-policy';
import { normaliseCommand, projectRelative } from '../../../shared/policy/rule-match';

export interface GateInput {
  command?: string | undefined;
  paths?: string[] | undefined;
  risk?: Risk | undefined;
}

/** What the policy gate found: a demotion to `ask`, a promotion to `auto`, or nothing. */
export type GateFinding =
  | { tier: 'ask'; rule: string; reason: string }
  | { tier: 'auto'; rule: string; reason: string }
  | undefined;

/** True when a path escapes the project (absolute outside it, or climbing with `..`). */
const escapesProject = (rel: string): boolean =>
  rel.startsWith('/') || rel.split('/').includes('..');

/**
 * The project's policy gate (as in the Safeloop seed): blocked commands, files outside the
 * allowed globs and risk above the maximum send an action to a human. Gatehouse has no deny
 * tier, so the gate never refuses; it only decides who decides.
 */
export function demotionByGate(
  input: GateInput,
  project: ProjectPolicy,
  projectDir?: string,
): GateFinding {
  const { policy } = project.policy;
  if (input.command) {
    const lower = input.command.toLowerCase();
    const blocked = policy.blocked_commands.find((b) => lower.includes(b.toLowerCase()));
    if (blocked) {
      return {
        tier: 'ask',
        rule: 'policy:blocked_commands',
        reason: `command contains blocked "${blocked}" (${project.file})`,
      };
    }
  }
  if (
    input.risk &&
    policy.max_risk &&
    RISK_ORDER.indexOf(input.risk) > RISK_ORDER.indexOf(policy.max_risk)
  ) {
    return {
      tier: 'ask',
      rule: 'policy:max_risk',
      reason: `risk ${input.risk} is above the project's maximum ${policy.max_risk}`,
    };
  }
  if (input.paths?.length && policy.allowed_files) {
    const outside = filesOutside(input.paths, policy.allowed_files, projectDir);
    if (outside.length) {
      return {
        tier: 'ask',
        rule: 'policy:allowed_files',
        reason: `outside the project's allowed files: ${outside.slice(0, 5).join(', ')}`,
      };
    }
  }
  return undefined;
}

/** Promotions the gate grants: an exactly allowed command, or writes inside allowed files. */
export function promotionByGate(
  input: GateInput & { isFileWrite: boolean },
  project: ProjectPolicy,
  projectDir?: string,
): GateFinding {
  const { policy } = project.policy;
  if (input.command) {
    const c = normaliseCommand(input.command);
    if (policy.allowed_commands.some((a) => normaliseCommand(a) === c)) {
      return {
        tier: 'auto',
        rule: 'policy:allowed_commands',
        reason: `"${c}" is an allowed command of the project`,
      };
    }
  }
  if (input.isFileWrite && !input.command && input.paths?.length && policy.allowed_files) {
    if (filesOutside(input.paths, policy.allowed_files, projectDir).length === 0) {
      return {
        tier: 'auto',
        rule: 'policy:allowed_files',
        reason: "every path is inside the project's allowed files",
      };
    }
  }
  return undefined;
}

function filesOutside(paths: string[], globs: string[], projectDir?: string): string[] {
  const isAllowed = picomatch(globs, { dot: true });
  return paths
    .map((p) => projectRelative(p, projectDir))
    .filter((rel) => escapesProject(rel) || !isAllowed(rel));
}
