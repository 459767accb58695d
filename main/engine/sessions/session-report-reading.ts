import {
  WAITING_STATUSES,
  type RequestStatus,
  type SessionRecord,
  type SessionSummary,
} from '../../../shared/domain';
import { iso } from '../../../shared/clock';
import { toRequestRecord } from '../kernel/records';
import {
  buildSessionReport,
  MAX_REPORT_NAMED,
  MAX_REPORT_REQUESTS,
  MAX_TIMELINE,
  spendTally,
} from './session-report';
import type { SessionsStore } from './sessions-store';
import { timelineEntry } from './transcript';

/**
 * A session's report (markdown), read from the store. The session's start and its figures,
 * not the session: a report of a session of a hundred thousand requests reads a few hundred
 * rows and counts the rest.
 */
export function readSessionReport(
  store: SessionsStore,
  detail: { session: SessionRecord; summary?: SessionSummary },
  now: number,
): string {
  const sessionId = detail.session.sessionId;
  // Trips and mode changes are what a report needs from the audit; the rest is in the
  // transcript and the requests.
  const audit = ['guard.tripped', 'mode.changed']
    .flatMap((type) => store.queryAudit({ type, sessionId, limit: 1000 }))
    .sort((a, b) => a.seq - b.seq);
  const counted = store.countSessionRequestsByStatus(sessionId);
  const named = (statuses: readonly RequestStatus[], total: number) => ({
    total,
    items: store
      .listFirstSessionRequests(sessionId, MAX_REPORT_NAMED, statuses)
      .map(toRequestRecord),
  });
  const spend = spendTally();
  store.forEachSessionTranscript(sessionId, 'usage', spend.add);
  // An empty page of the timeline: only its count.
  const timeline = store.pageSessionTimeline(sessionId, { limit: 0 });
  return buildSessionReport({
    ...detail,
    transcript: store.firstOfSessionTimeline(sessionId, MAX_TIMELINE).map(timelineEntry),
    transcriptTotal: timeline.total,
    requests: store.listFirstSessionRequests(sessionId, MAX_REPORT_REQUESTS).map(toRequestRecord),
    counts: {
      requests: counted.total,
      approved: counted.approved,
      denied: named(['denied'], counted.denied),
      waiting: named(WAITING_STATUSES, counted.pending + counted.timedOut),
      spend: spend.byModel(),
    },
    audit,
    now: iso(now),
  });
}
