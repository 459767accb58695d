import type { RequestStatus, SessionRecord, TranscriptEntry } from '../../../shared/domain';
import type { AuditReadStore } from '../kernel/kernel-store';
import type { Counted, Page } from '../kernel/page';
import type { RequestRow } from '../requests/requests-store';

export interface SessionRow extends Omit<SessionRecord, 'startedAt' | 'endedAt' | 'connections'> {
  startedAt: number;
  endedAt?: number | undefined;
  lastSeenAt: number;
  summaryJson?: string | undefined;
}

/** A closed session whose transcript file is not in place yet (a crash kept it from being written). */
export interface OwedTranscriptFile {
  sessionId: string;
  /** The session's connection count when it ended. */
  connections: number;
}

export interface SessionQuery {
  agent?: string | undefined;
  status: 'active' | 'ended' | 'all';
  limit: number;
  cursor?: string | undefined;
}

/** One item of a session's timeline: a row of its transcript, or a request it filed. */
export type TimelineItem = { transcript: TranscriptEntry } | { request: RequestRow };

/** A page of a session's timeline; `total` counts its entries, `requestsTotal` its requests. */
export interface TimelinePage extends Page<TimelineItem> {
  total: number;
  requestsTotal: number;
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

/** What a session's summary is made of (see sessions/summary.ts). */
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

/** Where sessions are kept (sessions.ts), with the transcript files still owed. */
export interface SessionRowsStore {
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
}

/** A session's requests and transcript as its summary, detail, report and file read them. */
export interface SessionContentStore {
  /** How many requests of the session wait for a human (pending or timed out). */
  countOpenRequests(sessionId: string): number;
  /** The sessions with requests waiting for a human (pending or timed out). */
  sessionsWithOpenRequests(): string[];
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
  /** Every transcript row of a session, oldest first: grows with the session. */
  listTranscript(sessionId: string): TranscriptEntry[];
  /**
   * A page of a session's timeline, newest first: its transcript rows and the requests it
   * filed, merged by time; `total` counts both.
   */
  pageSessionTimeline(
    sessionId: string,
    q: { limit: number; cursor?: string | undefined },
  ): TimelinePage;
  /** The first `limit` items of a session's timeline, oldest first. */
  firstOfSessionTimeline(sessionId: string, limit: number): TimelineItem[];
  /** A page of a session's timeline, oldest first (the transcript archive walks it so). */
  pageSessionTimelineOldestFirst(
    sessionId: string,
    q: { limit: number; cursor?: string | undefined },
  ): Page<TimelineItem>;
  /** A page of a session's requests, oldest first. */
  pageSessionRequestsOldestFirst(
    sessionId: string,
    q: { limit: number; cursor?: string | undefined },
  ): Page<RequestRow>;
  /** Calls `fn` with each transcript row of a session of `kind`, oldest first, one at a time. */
  forEachSessionTranscript(
    sessionId: string,
    kind: TranscriptEntry['kind'],
    fn: (entry: TranscriptEntry) => void,
  ): void;
}

/** Everything sessions and transcripts persist and read: the capability's narrow store port. */
export interface SessionsStore
  extends SessionRowsStore, SessionContentStore, Pick<AuditReadStore, 'queryAudit'> {}
