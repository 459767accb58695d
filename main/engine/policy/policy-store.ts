import type { RuleRecord } from '../../../shared/domain';
import type { RequestRow } from '../requests/requests-store';
import type { ProjectPolicyFile } from './project-policy';

/**
 * A file that decides what a test, build or git command runs, changed by an agent since the
 * person last approved such a run in its project (migration 013, run-inputs.ts).
 */
export interface RunInputChangeRow {
  /** The project's root directory. */
  project: string;
  /** Which runs it decides: test and build runners, or git's config and hooks. */
  group: 'tests' | 'git';
  /** Relative to the project root, forward slashes. */
  path: string;
  changedAt: number;
  sessionId?: string;
  agent: string;
  /** The action that changed it (write_file, edit_file …). */
  action: string;
}

/** The content of a project policy file the person trusted (see migration 006). */
export interface PolicyTrustRow {
  /** Canonical project directory. */
  projectDir: string;
  file: string;
  /** sha256 (hex) of the file's exact bytes when the person trusted it. */
  sha256: string;
  trustedAt: number;
  /** The channel the person trusted it through: cli, dashboard, desktop, socket. */
  trustedVia: string;
  /** The policy that content parsed to: its restrictions outlive an edit of the file. */
  policy: ProjectPolicyFile;
}

/** A project policy file an agent's session used, with the content last seen. */
export interface PolicySeenRow {
  projectDir: string;
  file: string;
  sha256: string;
  seenAt: number;
}

/** A rule suggestion the person said "not now" to: hidden until `snoozedUntil`. */
export interface SuggestionSnoozeRow {
  /** The suggestion's pattern: its narrowest rule draft as canonical JSON. */
  pattern: string;
  snoozedAt: number;
  snoozedUntil: number;
}

/** Where rules are kept (rule-book.ts). */
export interface RulesStore {
  insertRule(row: RuleRecord): void;
  listRules(): RuleRecord[];
  deleteRule(ruleId: string): boolean;
}

/** Which project policy files the person trusts, and which ones sessions used (trust-book.ts). */
export interface PolicyTrustStore {
  upsertPolicyTrust(row: PolicyTrustRow): void;
  deletePolicyTrust(projectDir: string): boolean;
  listPolicyTrust(): PolicyTrustRow[];
  upsertPolicySeen(row: PolicySeenRow): void;
  listPolicySeen(): PolicySeenRow[];
  /** Records a notice about untrusted content; false when one was already recorded. */
  insertPolicyTrustNotice(projectDir: string, sha256: string, at: number): boolean;
  listPolicyTrustNotices(): { projectDir: string; sha256: string }[];
}

/** Run-deciding files changed since the last approved run (run-input-watch.ts). */
export interface RunInputsStore {
  /** Records (or moves forward) the change of one run-deciding file. */
  upsertRunInputChange(row: RunInputChangeRow): void;
  /** The changes of a project's group not yet approved, oldest first. */
  listRunInputChanges(project: string, group: RunInputChangeRow['group']): RunInputChangeRow[];
  /** Forgets the changes up to `upTo` (a person approved a run that showed them). */
  clearRunInputChanges(project: string, group: RunInputChangeRow['group'], upTo: number): number;
}

/**
 * A request a person decided, with the pattern stored as they decided it (decision-pattern.ts);
 * its row's context holds only the directory its call ran in.
 */
export interface HumanDecision {
  row: RequestRow;
  pattern: string;
}

/** What rule suggestions read and remember (rule-suggestions.ts). */
export interface SuggestionsStore {
  /**
   * Requests a person decided, the newest `limit` decisions, newest first (rule suggestions
   * read these), without their context, rationale, message, reason and conditions.
   */
  listHumanDecidedRequests(limit: number): HumanDecision[];
  /**
   * The same decisions (of the newest `limit`, newest first), only those whose pattern an
   * approval in the session has: all a suggestion of the session is counted from.
   */
  listSessionPatternDecisions(sessionId: string, limit: number): HumanDecision[];
  /**
   * Stores the pattern of a request a person decided, with the decision, and the directory
   * its call ran in (read back as the row's context `cwd`, which rule-match.ts reads).
   */
  setDecisionPattern(requestId: string, pattern: string, runDir: string | undefined): void;
  upsertSuggestionSnooze(row: SuggestionSnoozeRow): void;
  /** Snoozes still running at `now`. */
  listSuggestionSnoozes(now: number): SuggestionSnoozeRow[];
  pruneSuggestionSnoozes(now: number): void;
}

/** Everything policy persists: the capability's narrow store port. */
export interface PolicyStore
  extends RulesStore, PolicyTrustStore, RunInputsStore, SuggestionsStore {}
