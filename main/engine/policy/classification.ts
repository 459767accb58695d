import type { Risk, RuleRecord, Tier } from '../../../shared/domain';
import type { PathProtection } from './path-port';
import type { ProjectPolicy } from './project-policy';
import type { ProjectTrust } from './project-trust';
import type { ShadowRecord, TeamPolicyInfo, TeamRule } from '../../../shared/policy/team-policy';
import type { ConfigHomes } from '../../../shared/policy/protected-locations';
import type { SecretWalk } from '../../../shared/tools/commands/secret-walk';

/**
 * What classifying an action takes and gives: the types the classifier (classifier.ts) and
 * the checks it runs first (protected-paths.ts, rule-scope.ts) share. They live apart from
 * all three so that those files do not import each other.
 */
export interface ActionDescription {
  action: string;
  target?: string | undefined;
  command?: string | undefined;
  paths?: string[] | undefined;
  risk?: Risk | undefined;
  /**
   * The tool input was larger than Gatehouse parses (JSON bytes): the call is not analysed
   * and always asks. Set only by the gate (tool-gate.ts); no agent parameter carries it.
   */
  oversize?: number | undefined;
  /**
   * What the agent's own search tool reads under its paths (a content search: Copilot's
   * `grep`, OpenCode's): walked for secrets as `rg --hidden` is. Set only by the gate's tool
   * mapping (shared/tools/tool-mapping.ts); no agent parameter carries it.
   */
  walks?: SecretWalk | undefined;
  /** The CDPATH the agent's shell inherits (the gate's `cdpath`): `cd name` follows it. */
  cdpath?: string | undefined;
  /** The PATH the agent's shell inherits (the gate's `shellPath`): its folders are protected. */
  shellPath?: string | undefined;
  /** Gatehouse's secret variables in the agent's environment (the gate's `secretVariables`). */
  secretVariables?: readonly string[] | undefined;
  /** The agent's moved config folders (the gate's `configHomes`): protected as the usual ones. */
  configHomes?: ConfigHomes | undefined;
}

/**
 * What the agent's environment tells about a call (a gate call's `cdpath`, `shellPath`,
 * `secretVariables` and `configHomes`): the call runs in it, and so does a person's edit of it.
 */
export type CallEnvironment = Pick<
  ActionDescription,
  'cdpath' | 'shellPath' | 'secretVariables' | 'configHomes'
>;

export interface Classification {
  tier: Tier;
  /** The rule that decided, e.g. `default:read_file`, `user:r-…`, `policy:blocked_commands`. */
  rule: string;
  reason: string;
  /** Set when the finding carries a risk of its own (protected paths: critical). */
  risk?: Risk;
  /**
   * A team rule denies the action (team-rules.ts): the tier stays `ask` for everything that
   * reads tiers, and the request is denied as it is filed, without waiting for anyone.
   */
  deny?: true;
}

export interface ClassifyContext {
  project?: string | undefined;
  projectPolicy?: ProjectPolicy | undefined;
  /** Whether the person trusts the policy file's current content; absent means not trusted. */
  projectTrust?: ProjectTrust | undefined;
  /** The content the person trusted, when the file was edited or deleted since: its restrictions hold. */
  trustedProjectPolicy?: ProjectPolicy | undefined;
  rules: readonly RuleRecord[];
  /** The team policy from the hub; it outranks the person's rules and project files. */
  team?: TeamPolicyView | undefined;
  /** Protected and secret paths (protected-paths.ts); absent, only action names are checked. */
  paths?: PathContext | undefined;
}

/** The paths half of a classification context: protection and where the agent works. */
export interface PathContext extends PathProtection {
  /** The agent's working directory when known (the `gate` cwd), else its project. */
  cwd?: string | undefined;
}

/** The team policy a machine runs: the accepted bundle's version and rules. */
export interface TeamPolicyView {
  version: number;
  rules: readonly TeamRule[];
}

/**
 * Where the engine finds the team policy (main/hub-link/team-policy-book.ts keeps it, and
 * team-rules.ts reads it): read on every classification, and told of each call a shadow rule
 * would have decided otherwise.
 */
export interface TeamPolicySource {
  current(): TeamPolicyView | undefined;
  /** Which version runs, for `status`, `rules` and the dashboard; undefined when none. */
  info(): TeamPolicyInfo | undefined;
  shadowed(record: Omit<ShadowRecord, 'id'>): void;
}
