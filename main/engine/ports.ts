import type {
  SessionRecord,
  SessionSummary,
  TranscriptEntry,
  RequestRecord,
} from '../../shared/domain';

/** Sends JSON-RPC notifications to agents' open connections (implemented by the socket). */
export interface AgentNotifier {
  toSession(sessionId: string, method: 'decision' | 'control', params: object): void;
  /** `agent` undefined means every connected agent. */
  toAgent(agent: string | undefined, method: 'control', params: object): void;
}

/** Where a closed session's transcript goes (a JSON file under $GATEHOUSE_HOME/transcripts). */
export interface TranscriptArchive {
  write(doc: {
    session: SessionRecord;
    summary: SessionSummary;
    transcript: TranscriptEntry[];
    requests: RequestRecord[];
  }): void;
}
