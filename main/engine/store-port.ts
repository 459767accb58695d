import type { ProjectPolicyFile } from './policy/project-policy';
import type {
  AuditEvent,
  RequestRecord,
  RequestStatus,
  RuleMatchers,
  RuleRecord,
  SessionRecord,
  TranscriptEntry,
} from '../../shared/domain';

/** A remembered human decision that covers later actions without asking again. */
export interface GrantRecord {
  grantId: string;
  agent: string;
  /** Limits the grant to one session; absent for grants that follow the agent. */
  sessionId?: string;
  action: string;
  /** Limits the grant to exactly one action (action, target, command, paths). */
  fingerprint?: string;
  /**
   * Limits the grant as a rule's matchers limit a rule (exact command, command prefix,
   * target, path globs, project). Absent on grants from before matchers: action-wide.
   */
  matchers?: RuleMatchers;
  usesLeft?: number;
  expiresAt?: number;
  maxSpendUsd?: number;
  spentUsd: number;
  sourceRequestId: string;
  kind: 'late_approval' | 'session' | 'envelope';
  createdAt: number;
  endedAt?: number;
}

export interface SessionRow extends Omit<SessionRecord, 'startedAt' | 'endedAt' | 'connections'> {
  startedAt: number;
  endedAt?: number;
  lastSeenAt: number;
  summaryJson?: string;
}

/** A closed session whose transcript file is not in place yet (a crash kept it from being written). */
export interface OwedTranscriptFile {
  sessionId: string;
  /** The session's connection count when it ended. */
  connections: number;
}

export interface RequestRow extends Omit<RequestRecord, 'createdAt' | 'timeoutAt' | 'decidedAt'> {
  fingerprint: string;
  createdAt: number;
  timeoutAt?: number;
  decidedAt?: number;
}

export interface AuditInput {
  at: number;
  type: string;
  sessionId?: string;
  agent?: string;
  requestId?: string;
  data: Record<string, unknown>;
}

export interface RequestQuery {
  status?: RequestStatus[];
  agent?: string;
  sessionId?: string;
  action?: string;
  limit: number;
  /** The page after this one (see main/store/paging.ts). */
  cursor?: string;
}

/** A pending wait's deadline and its place in deadline order. */
export interface WaitMark {
  requestId: string;
  timeoutAt: number;
  /** The request's key: orders waits with the same deadline. */
  key: number;
}

/** One page of a list that grows with history, and where the next page starts. */
export interface Page<T> {
  items: T[];
  /** Every match, on every page. */
  total?: number;
  /** Absent on the last page. */
  nextCursor?: string;
}

/** One item of a session's timeline: a row of its transcript, or a request it filed. */
export type TimelineItem = { transcript: TranscriptEntry } | { request: RequestRow };

/** A page of a session's timeline; `total` counts its entries, `requestsTotal` its requests. */
export interface TimelinePage extends Page<TimelineItem> {
  total: number;
  requestsTotal: number;
}

/** The first items of a list (oldest first) and how many it has in all. */
export interface Counted<T> {
  items: T[];
  total: number;
}

/** What a summary says of a request. */
export type SummaryRequest = Pick<
  RequestRow,
  'requestId' | 'description' | 'status' | 'decidedBy' | 'reason'
>;

/** How many requests a session filed, and of some statuses. */
export interface SessionRequestCounts {
  total: number;
  approved: number;
  denied: number;
  pending: number;
  timedOut: number;
}

/** What a session's summary is made of (see engine/summary.ts). */
export interface SessionSummaryFacts {
  /** Its log entries, but for stops. */
  logs: Counted<string>;
  /** Its log entries saying the agent stopped (`type: "stopped"`). */
  stops: Counted<string>;
  /** Requests a person was asked about and approved. */
  approvedAsks: Counted<SummaryRequest>;
  /** Requests still waiting (pending, timed out) or denied. */
  unsettled: Counted<SummaryRequest>;
  /** Whether a person approved any request of the session. */
  humanApproved: boolean;
}

/** A page of the review queue (requests waiting for a human). */
export interface OpenRequestQuery {
  agent?: string;
  /** Only requests whose session is (`connected`) or is not among `ids`: the live ones. */
  sessions?: { ids: string[]; connected: boolean };
  /**
   * Sessions with an open connection: the `attention` order puts requests of the others (gone
   * agents) after those of connected ones. Without it every session counts as connected.
   */
  connectedSessionIds?: string[];
  /** `attention`: what needs the person first (shared/queue-order.ts). */
  order: 'attention' | 'oldest' | 'newest';
  limit: number;
  cursor?: string;
}

export interface SessionQuery {
  agent?: string;
  status: 'active' | 'ended' | 'all';
  limit: number;
  cursor?: string;
}

export interface AuditQuery {
  type?: string;
  sessionId?: string;
  agent?: string;
  requestId?: string;
  sinceMs?: number;
  /** Entries before this time. */
  untilMs?: number;
  afterSeq?: number;
  limit: number;
  /** The page after this one (see main/store/paging.ts). */
  cursor?: string;
}

export interface ControlRow {
  agent: string;
  state: 'paused' | 'killed';
  reason?: string;
  updatedAt: number;
}

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

/**
 * Everything the engine persists. Implemented over better-sqlite3 in main/store; the engine
 * is its only writer. All methods are synchronous so that a state change and its audit entry
 * share one transaction.
 */
export interface EngineStore {
  /** Runs `fn` atomically; inside an open batch it is a savepoint of the batch. */
  transaction<T>(fn: () => T): T;
  /** Starts a write batch (group commit): later transactions join it until `commitBatch`. */
  beginBatch(): void;
  commitBatch(): void;
  rollbackBatch(): void;
  /**
   * Whether the batch is still open. SQLite rolls back the whole transaction by itself on
   * some errors (SQLITE_FULL, I/O errors), taking every unit of the batch with it.
   */
  inBatch(): boolean;

  insertSession(row: SessionRow): void;
  updateSession(sessionId: string, patch: Partial<SessionRow>): void;
  getSession(sessionId: string): SessionRow | undefined;
  findSessionByKey(agent: string, sessionKey: string): SessionRow | undefined;
  listSessions(q: SessionQuery): SessionRow[];
  pageSessions(q: SessionQuery): Page<SessionRow>;
  /** Active sessions and how many agents they belong to (counted, not read). */
  countActiveSessions(): { sessions: number; agents: number };
  /**
   * Records, in the caller's transaction (the session's end), that the session's transcript
   * file is owed, with its connection count at the end (the file's record carries it).
   */
  oweTranscriptFile(sessionId: string, connections: number): void;
  /** Transcript files still owed, after session id `after` (`''` for the first), at most `limit`. */
  owedTranscriptFiles(after: string, limit: number): OwedTranscriptFile[];
  /** The session's transcript file is in place: it is no longer owed. */
  transcriptFileWritten(sessionId: string): void;

  /**
   * Saves a newly filed request together with its `request.filed` audit entry (at the row's
   * `createdAt`), in the caller's transaction. How the entry is kept is the store's business:
   * a request settled as it is filed never changes again, so the store may let the row stand
   * as its own entry (see migration 005); readers of the audit trail see the same entry.
   */
  fileRequest(row: RequestRow): void;
  updateRequest(requestId: string, patch: Partial<RequestRow>): void;
  getRequest(requestId: string): RequestRow | undefined;
  findOpenByDedupeKey(sessionId: string, dedupeKey: string): RequestRow | undefined;
  /** Every request waiting for a human, oldest first: grows with the queue (tests, tools). */
  listOpenRequests(): RequestRow[];
  /** A page of the requests waiting for a human (pending or timed out). */
  pageOpenRequests(q: OpenRequestQuery): Page<RequestRow>;
  /** How many requests wait for a human, and how many of them timed out (counted). */
  countWaiting(): { waiting: number; timedOut: number };
  /** How many of one agent's requests wait for a human. */
  countWaitingForAgent(agent: string): number;
  /**
   * Pending waits whose deadline is at or before `upTo` and after `after` (in deadline
   * order), soonest first, at most `limit`.
   */
  listDueWaits(after: WaitMark | undefined, upTo: number, limit: number): WaitMark[];
  /** The soonest deadline of a pending wait after `after`, if any. */
  nextWaitDeadline(after: WaitMark | undefined): number | undefined;
  /** How many requests of the session wait for a human (pending or timed out). */
  countOpenRequests(sessionId: string): number;
  queryRequests(q: RequestQuery): Page<RequestRow>;
  /** Every request of a session, oldest first: grows with the session (summary, archive). */
  listSessionRequests(sessionId: string): RequestRow[];
  /** The first `max` items of each list a session's summary reads, and their counts. */
  sessionSummaryFacts(sessionId: string, max: number): SessionSummaryFacts;
  /** The first `limit` requests of a session (of `statuses`, when given), oldest first. */
  listFirstSessionRequests(
    sessionId: string,
    limit: number,
    statuses?: readonly RequestStatus[],
  ): RequestRow[];
  /** How many requests a session filed, and how many have each of some statuses. */
  countSessionRequestsByStatus(sessionId: string): SessionRequestCounts;
  /** The newest `limit` requests of a session, newest first (not counted). */
  listNewestSessionRequests(sessionId: string, limit: number): RequestRow[];
  /**
   * Requests a person decided, newest decision first (rule suggestions read these), without
   * their context, rationale, message, reason and conditions.
   */
  listHumanDecidedRequests(limit: number): RequestRow[];

  insertGrant(row: GrantRecord): void;
  updateGrant(grantId: string, patch: Partial<GrantRecord>): void;
  listLiveGrants(agent: string, action: string): GrantRecord[];
  listLiveGrantsForAgent(agent: string): GrantRecord[];

  insertRule(row: RuleRecord): void;
  listRules(): RuleRecord[];
  deleteRule(ruleId: string): boolean;

  appendAudit(entry: AuditInput): number;
  /**
   * Rewrites the data of an entry the engine folds repeats into (`action.classified`, see
   * classify-folding.ts); false when no such entry exists (rolled back or pruned).
   */
  updateAuditData(seq: number, data: Record<string, unknown>): boolean;
  queryAudit(q: AuditQuery): AuditEvent[];
  /** {@link queryAudit} with where the next page starts, and with `withTotal` a count. */
  pageAudit(q: AuditQuery & { withTotal?: boolean }): Page<AuditEvent>;

  appendTranscript(sessionId: string, entry: TranscriptEntry): void;
  /** Every transcript row of a session, oldest first: grows with the session. */
  listTranscript(sessionId: string): TranscriptEntry[];
  /**
   * A page of a session's timeline, newest first: its transcript rows and the requests it
   * filed, merged by time; `total` counts both.
   */
  pageSessionTimeline(sessionId: string, q: { limit: number; cursor?: string }): TimelinePage;
  /** The first `limit` items of a session's timeline, oldest first. */
  firstOfSessionTimeline(sessionId: string, limit: number): TimelineItem[];
  /** A page of a session's timeline, oldest first (the transcript archive walks it so). */
  pageSessionTimelineOldestFirst(
    sessionId: string,
    q: { limit: number; cursor?: string },
  ): Page<TimelineItem>;
  /** A page of a session's requests, oldest first. */
  pageSessionRequestsOldestFirst(
    sessionId: string,
    q: { limit: number; cursor?: string },
  ): Page<RequestRow>;
  /** Calls `fn` with each transcript row of a session of `kind`, oldest first, one at a time. */
  forEachSessionTranscript(
    sessionId: string,
    kind: TranscriptEntry['kind'],
    fn: (entry: TranscriptEntry) => void,
  ): void;

  setControl(row: ControlRow): void;
  clearControl(agent: string): void;
  listControls(): ControlRow[];

  upsertPolicyTrust(row: PolicyTrustRow): void;
  deletePolicyTrust(projectDir: string): boolean;
  listPolicyTrust(): PolicyTrustRow[];
  upsertPolicySeen(row: PolicySeenRow): void;
  listPolicySeen(): PolicySeenRow[];
  /** Records a notice about untrusted content; false when one was already recorded. */
  insertPolicyTrustNotice(projectDir: string, sha256: string, at: number): boolean;
  listPolicyTrustNotices(): { projectDir: string; sha256: string }[];

  /** Records (or moves forward) the change of one run-deciding file. */
  upsertRunInputChange(row: RunInputChangeRow): void;
  /** The changes of a project's group not yet approved, oldest first. */
  listRunInputChanges(project: string, group: RunInputChangeRow['group']): RunInputChangeRow[];
  /** Forgets the changes up to `upTo` (a person approved a run that showed them). */
  clearRunInputChanges(project: string, group: RunInputChangeRow['group'], upTo: number): number;

  upsertSuggestionSnooze(row: SuggestionSnoozeRow): void;
  /** Snoozes still running at `now`. */
  listSuggestionSnoozes(now: number): SuggestionSnoozeRow[];
  pruneSuggestionSnoozes(now: number): void;

  loadSettings(): unknown;
  saveSettings(value: unknown, at: number): void;
}
