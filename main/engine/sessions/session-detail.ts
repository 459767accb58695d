import type { SessionRecord, SessionSummary } from '../../../shared/domain';
import type { SessionService } from './sessions';
import type { SessionContentStore, SessionRow } from './sessions-store';
import { boundedSummary, currentSummary, SUMMARY_MAX_ITEMS } from './summary';

/** A session as a person sees it: its record, and its summary brought up to date. */
export function sessionDetail(
  sessions: Pick<SessionService, 'record'>,
  store: Pick<SessionContentStore, 'sessionSummaryFacts'>,
  s: SessionRow,
): { session: SessionRecord; summary?: SessionSummary } {
  return {
    session: sessions.record(s),
    ...(s.summaryJson
      ? {
          summary: currentSummary(
            boundedSummary(JSON.parse(s.summaryJson) as SessionSummary),
            s,
            store.sessionSummaryFacts(s.sessionId, SUMMARY_MAX_ITEMS),
          ),
        }
      : {}),
  };
}
