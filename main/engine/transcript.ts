import type { TranscriptEntry } from '../../shared/domain';
import { iso } from '../../shared/clock';
import type { EngineStore, RequestRow, TimelineItem } from './store-port';

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
export function sessionTranscript(store: EngineStore, sessionId: string): TranscriptEntry[] {
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
