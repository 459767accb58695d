import { demotionByGate, promotionByGate, type GateFinding } from './policy-gate';
import type { ProjectPolicy } from './project-policy';

/**
 * Whether the person trusts a project's policy file as it is now:
 * - `trusted`: its current content hash is the one the person trusted for this project;
 * - `edited`: the person trusted other content for this project (any edit voids trust);
 * - `untrusted`: the person never trusted a policy for this project.
 */
export type ProjectTrust = 'trusted' | 'untrusted' | 'edited';

/** The parts of an action the project's policy looks at. */
export interface PolicyAction {
  action: string;
  command?: string | undefined;
  paths?: string[] | undefined;
  risk?: 'low' | 'medium' | 'high' | 'critical' | undefined;
}

type Finding = Exclude<GateFinding, undefined>;

const normaliseCommand = (c: string): string => c.trim().replace(/\s+/g, ' ');

/**
 * What a project's policy file restricts, whoever wrote it: restrictions only ever send an
 * action to a person, so they apply before (and without) trust. The gate (blocked commands,
 * maximum risk, files outside the allowed globs), `allowed_commands` as a limit (a command
 * not on the list asks), and `require_permission`.
 */
export function projectRestriction(
  a: PolicyAction,
  pp: ProjectPolicy,
  projectDir?: string,
): Finding | undefined {
  const demoted = demotionByGate(a, pp, projectDir);
  if (demoted) return demoted;
  const allowed = pp.policy.policy.allowed_commands;
  if (a.command && allowed.length) {
    const c = normaliseCommand(a.command);
    if (!allowed.some((x) => normaliseCommand(x) === c)) {
      return {
        tier: 'ask',
        rule: 'policy:allowed_commands',
        reason: `"${c.slice(0, 200)}" is not among the allowed commands of ${pp.file}`,
      };
    }
  }
  if (pp.policy.rules.require_permission.includes(a.action)) {
    return {
      tier: 'ask',
      rule: 'project:require_permission',
      reason: `${pp.file} requires permission for ${a.action}`,
    };
  }
  return undefined;
}

/** The project's own promotion (`allow_without_permission`); only for a trusted file. */
export function projectRulePromotion(a: PolicyAction, pp: ProjectPolicy): Finding | undefined {
  if (!pp.policy.rules.allow_without_permission.includes(a.action)) return undefined;
  return {
    tier: 'auto',
    rule: 'project:allow_without_permission',
    reason: `${pp.file} allows ${a.action} without permission (trusted content)`,
  };
}

/** True when the file, if trusted, would let this action through without asking. */
export function wouldPromote(
  a: PolicyAction & { isFileWrite: boolean },
  pp: ProjectPolicy,
  projectDir?: string,
): boolean {
  return (
    projectRulePromotion(a, pp) !== undefined || promotionByGate(a, pp, projectDir) !== undefined
  );
}

/** How to tell the person (and the agent) why the file did not promote, and what to do. */
export function untrustedReason(pp: ProjectPolicy, trust: ProjectTrust): string {
  const why =
    trust === 'edited'
      ? 'was edited since it was trusted, so it is not trusted: only its restrictions and those of the trusted content apply'
      : 'is not trusted: only its restrictions apply';
  return `the project policy ${pp.file} ${why}; to let it allow actions without asking, review it and run \`gatehouse trust ${pp.dir}\``;
}

/** Whether a policy file promotes anything at all (so that using it untrusted is news). */
export function promotesAnything(pp: ProjectPolicy): boolean {
  const { rules, policy } = pp.policy;
  return (
    rules.allow_without_permission.length > 0 ||
    policy.allowed_commands.length > 0 ||
    (policy.allowed_files?.length ?? 0) > 0
  );
}

/** What a policy file would allow without asking and what it restricts, for people to read. */
export interface PolicySummary {
  /** Actions that would run without asking. */
  allowsActions: string[];
  /** Commands that would run without asking (exactly these). */
  allowsCommands: string[];
  /** Globs inside which file writes would run without asking. */
  allowsFileWrites: string[];
  /** One line per promotion, e.g. "git_push without asking". */
  allows: string[];
  /** One line per restriction, e.g. "commands containing rm -rf ask". */
  restricts: string[];
}

/** Summarises a policy file for `trust.preview`, `trust.list` and the CLI. */
export function summarisePolicy(pp: ProjectPolicy): PolicySummary {
  const { rules, policy, automation } = pp.policy;
  const allows = [
    ...rules.allow_without_permission.map((a) => `${a} without asking`),
    ...policy.allowed_commands.map((c) => `the command "${c}" without asking`),
    ...(policy.allowed_files?.length
      ? [`file writes inside ${policy.allowed_files.join(', ')} without asking`]
      : []),
  ];
  const restricts = [
    ...rules.require_permission.map((a) => `${a} always asks`),
    ...policy.blocked_commands.map((c) => `commands containing "${c}" ask`),
    ...(policy.allowed_files?.length
      ? [`files outside ${policy.allowed_files.join(', ')} ask`]
      : []),
    ...(policy.allowed_commands.length ? ['commands not in allowed_commands ask'] : []),
    ...(policy.max_risk ? [`risk above ${policy.max_risk} asks`] : []),
    ...(automation.allow_auto_promotion ? [] : ['the automation ladder never raises its level']),
  ];
  return {
    allowsActions: [...rules.allow_without_permission],
    allowsCommands: [...policy.allowed_commands],
    allowsFileWrites: [...(policy.allowed_files ?? [])],
    allows,
    restricts,
  };
}
