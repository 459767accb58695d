import type {
  SessionRecord,
  SessionSummary,
  TranscriptEntry,
  RequestRecord,
} from '../../../shared/domain';

/** Sends JSON-RPC notifications to agents' open connections (implemented by the socket). */
export interface AgentNotifier {
  toSession(sessionId: string, method: 'decision' | 'control', params: object): void;
  /** `agent` undefined means every connected agent. */
  toAgent(agent: string | undefined, method: 'control', params: object): void;
}

/**
 * A closed session as its transcript file holds it, read a page at a time: each call of a
 * `next…Page` reads the next page (oldest first), and an empty page means all was read.
 */
export interface ArchivedSession {
  session: SessionRecord;
  summary: SessionSummary;
  nextTranscriptPage(): TranscriptEntry[];
  nextRequestsPage(): RequestRecord[];
}

/** Where a closed session's transcript goes (a JSON file under $GATEHOUSE_HOME/transcripts). */
export interface TranscriptArchive {
  /** Writes the session's file in the background, a page per turn; resolves once it is in place. */
  write(doc: ArchivedSession): Promise<void>;
}
