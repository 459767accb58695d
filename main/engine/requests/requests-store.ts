import type { RequestRecord, RequestStatus, RuleMatchers } from '../../../shared/domain';
import type { Page } from '../kernel/page';

/** A remembered human decision that covers later actions without asking again. */
export interface GrantRecord {
  grantId: string;
  agent: string;
  /** Limits the grant to one session; absent for grants that follow the agent. */
  sessionId?: string | undefined;
  action: string;
  /** Limits the grant to exactly one action (action, target, command, paths). */
  fingerprint?: string | undefined;
  /**
   * Limits the grant as a rule's matchers limit a rule (exact command, command prefix,
   * target, path globs, project). Absent on grants from before matchers: action-wide.
   */
  matchers?: RuleMatchers | undefined;
  usesLeft?: number | undefined;
  expiresAt?: number | undefined;
  maxSpendUsd?: number | undefined;
  spentUsd: number;
  sourceRequestId: string;
  kind: 'late_approval' | 'session' | 'envelope';
  createdAt: number;
  endedAt?: number | undefined;
}

export interface RequestRow extends Omit<RequestRecord, 'createdAt' | 'timeoutAt' | 'decidedAt'> {
  fingerprint: string;
  createdAt: number;
  timeoutAt?: number | undefined;
  decidedAt?: number | undefined;
}

export interface RequestQuery {
  status?: RequestStatus[] | undefined;
  agent?: string | undefined;
  sessionId?: string | undefined;
  action?: string | undefined;
  limit: number;
  /** The page after this one (see main/store/paging.ts). */
  cursor?: string | undefined;
}

/** A pending wait's deadline and its place in deadline order. */
export interface WaitMark {
  requestId: string;
  timeoutAt: number;
  /** The request's key: orders waits with the same deadline. */
  key: number;
}

/** A page of the review queue (requests waiting for a human). */
export interface OpenRequestQuery {
  agent?: string | undefined;
  /** Only requests whose session is (`connected`) or is not among `ids`: the live ones. */
  sessions?: { ids: string[]; connected: boolean } | undefined;
  /**
   * Sessions with an open connection: the `attention` order puts requests of the others (gone
   * agents) after those of connected ones. Without it every session counts as connected.
   */
  connectedSessionIds?: string[];
  /** `attention`: what needs the person first (shared/queue-order.ts). */
  order: 'attention' | 'oldest' | 'newest';
  /**
   * With `attention`: rank by the urgency Gatehouse infers at this time (ms since the epoch)
   * where the agent gave none; absent, inference is off (`requests.inferUrgency`).
   */
  inferUrgencyAt?: number | undefined;
  limit: number;
  cursor?: string | undefined;
}

/** Where grants are kept (grants.ts). */
export interface GrantsStore {
  insertGrant(row: GrantRecord): void;
  updateGrant(grantId: string, patch: Partial<GrantRecord>): void;
  listLiveGrants(agent: string, action: string): GrantRecord[];
  listLiveGrantsForAgent(agent: string): GrantRecord[];
  /**
   * Grants in force at `now` (not ended, not expired), of one agent when given, newest first,
   * at most `limit`: what the person's approvals let agents do without asking.
   */
  listGrantsInForce(now: number, limit: number, agent?: string): GrantRecord[];
  /** One grant by id, whether or not it is still in force. */
  getGrant(grantId: string): GrantRecord | undefined;
}

/** Where the review queue keeps requests (review-queue.ts) and the admin side reads them. */
export interface RequestRowsStore {
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
}

/** Everything requests and grants persist: the capability's narrow store port. */
export interface RequestsStore extends RequestRowsStore, GrantsStore {}
