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

export interface RequestRow extends Omit<RequestRecord, 'createdAt' | 'timeoutAt' | 'decidedAt'> {
  fingerprint: string;
  createdAt: number;
  timeoutAt?: number;
  decidedAt?: number;
  /**
   * Set when the row is its own `request.filed` audit entry (a request settled as it was
   * filed never changes again): the entry's number in the audit sequence.
   */
  auditSeq?: number;
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
}

export interface AuditQuery {
  type?: string;
  sessionId?: string;
  agent?: string;
  requestId?: string;
  sinceMs?: number;
  afterSeq?: number;
  limit: number;
}

export interface ControlRow {
  agent: string;
  state: 'paused' | 'killed';
  reason?: string;
  updatedAt: number;
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

  insertSession(row: SessionRow): void;
  updateSession(sessionId: string, patch: Partial<SessionRow>): void;
  getSession(sessionId: string): SessionRow | undefined;
  findSessionByKey(agent: string, sessionKey: string): SessionRow | undefined;
  listSessions(q: {
    agent?: string;
    status: 'active' | 'ended' | 'all';
    limit: number;
  }): SessionRow[];

  insertRequest(row: RequestRow): void;
  updateRequest(requestId: string, patch: Partial<RequestRow>): void;
  getRequest(requestId: string): RequestRow | undefined;
  findOpenByDedupeKey(sessionId: string, dedupeKey: string): RequestRow | undefined;
  listOpenRequests(): RequestRow[];
  queryRequests(q: RequestQuery): RequestRow[];
  listSessionRequests(sessionId: string): RequestRow[];

  insertGrant(row: GrantRecord): void;
  updateGrant(grantId: string, patch: Partial<GrantRecord>): void;
  listLiveGrants(agent: string, action: string): GrantRecord[];
  listLiveGrantsForAgent(agent: string): GrantRecord[];

  insertRule(row: RuleRecord): void;
  listRules(): RuleRecord[];
  deleteRule(ruleId: string): boolean;

  appendAudit(entry: AuditInput): number;
  /** Takes the next number in the audit sequence for an entry kept in another table. */
  reserveAuditSeq(): number;
  queryAudit(q: AuditQuery): AuditEvent[];

  appendTranscript(sessionId: string, entry: TranscriptEntry): void;
  listTranscript(sessionId: string): TranscriptEntry[];

  setControl(row: ControlRow): void;
  clearControl(agent: string): void;
  listControls(): ControlRow[];

  loadSettings(): unknown;
  saveSettings(value: unknown, at: number): void;
}
