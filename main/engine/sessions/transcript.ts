import type { SessionRecord, SessionSummary, TranscriptEntry } from '../../../shared/domain';
import type { ArchivedSession } from '../kernel/ports';
import { toRequestRecord } from '../kernel/records';
import { iso } from '../../../shared/clock';
import type { SessionContentStore, TimelineItem } from './sessions-store';
import type { RequestRow } from '../requests/requests-store';

/** How a filed request reads in a session's transcript. */
export function requestEntry(r: RequestRow): TranscriptEntry {
  // Decided in the same instant it was filed: by policy, a rule, a grant or the ladder.
  const allowed = r.status === 'approved' && r.decidedAt === r.createdAt;
  return {
    at: iso(r.createdAt),
    kind: 'request',
    text: `${allowed ? 'Allowed' : 'Asked'}: ${r.description}`,
    data: { requestId: r.requestId, action: r.action, rule: r.rule },
  };
}

/** How an item of a session's timeline (store.pageSessionTimeline) reads in its transcript. */
export const timelineEntry = (item: TimelineItem): TranscriptEntry =>
  'request' in item ? requestEntry(item.request) : item.transcript;

/**
 * A session's whole transcript (its summary and archive read it; views read pages of
 * store.pageSessionTimeline): what it logged, decisions and outcomes (transcript rows), and
 * every request it filed. Requests are not copied into the transcript table: the requests
 * table already holds each one, and writing it twice doubled the cost of the commonest call.
 */
export function sessionTranscript(
  store: SessionContentStore,
  sessionId: string,
): TranscriptEntry[] {
  const rows = store.listTranscript(sessionId);
  const requests = store.listSessionRequests(sessionId).map(requestEntry);
  // Both lists are in time order; a stable merge keeps a request before what followed it.
  const merged: TranscriptEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < rows.length || j < requests.length) {
    const takeRequest = j < requests.length && (i >= rows.length || requests[j]!.at <= rows[i]!.at);
    merged.push(takeRequest ? requests[j++]! : rows[i++]!);
  }
  return merged;
}

/** Items of the timeline (and requests) the transcript archive reads at a time. */
export const ARCHIVE_PAGE = 200;

/**
 * A closed session for its transcript file: the whole of {@link sessionTranscript} and every
 * request, read oldest first a page at a time on the session's indexes, so writing the file
 * of a session of any length never holds more than a page.
 */
export function archivedSession(
  store: SessionContentStore,
  session: SessionRecord,
  summary: SessionSummary,
  pageSize = ARCHIVE_PAGE,
): ArchivedSession {
  const { sessionId } = session;
  const pager = <T>(
    read: (q: { limit: number; cursor?: string }) => { items: T[]; nextCursor?: string },
  ) => {
    let cursor: string | undefined;
    let done = false;
    return (): T[] => {
      if (done) return [];
      const page = read({ limit: pageSize, ...(cursor ? { cursor } : {}) });
      cursor = page.nextCursor;
      done = !cursor;
      return page.items;
    };
  };
  const timeline = pager((q) => store.pageSessionTimelineOldestFirst(sessionId, q));
  const requests = pager((q) => store.pageSessionRequestsOldestFirst(sessionId, q));
  return {
    session,
    summary,
    nextTranscriptPage: () => timeline().map(timelineEntry),
    nextRequestsPage: () => requests().map(toRequestRecord),
  };
}
