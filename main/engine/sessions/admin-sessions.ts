import type { Clock } from '../../../shared/clock';
import type { AdminHandlers } from '../kernel/admin-handlers';
import { toRequestRecord } from '../kernel/records';
import { sessionDetail } from './session-detail';
import { readSessionReport } from './session-report-reading';
import type { SessionService } from './sessions';
import type { SessionsStore } from './sessions-store';
import { timelineEntry } from './transcript';

export interface SessionsAdminDeps {
  store: SessionsStore;
  sessions: Pick<SessionService, 'get' | 'record'>;
  clock: Clock;
}

/** The admin methods of sessions: the list, one session, its transcript and its report. */
export function sessionsAdmin(d: SessionsAdminDeps) {
  const { store, sessions } = d;
  return {
    'sessions.list': (p) => {
      const { items, ...page } = store.pageSessions(p);
      return { sessions: items.map((s) => sessions.record(s)), ...page };
    },
    /**
     * A session with its newest requests and transcript entries and how many there are in
     * all: the same cost for a session of ten requests or of a hundred thousand.
     */
    'session.get': (p) => {
      const s = sessions.get(p.sessionId);
      // The timeline's page counts both lists; the requests' page needs no count of its own.
      const timeline = store.pageSessionTimeline(s.sessionId, { limit: p.transcriptLimit });
      const requests = p.requestsLimit
        ? store.listNewestSessionRequests(s.sessionId, p.requestsLimit)
        : [];
      return {
        ...sessionDetail(sessions, store, s),
        // Pages come newest first; the detail reads in time order, as it always did.
        transcript: timeline.items.map(timelineEntry).reverse(),
        transcriptTotal: timeline.total,
        requests: requests.map(toRequestRecord).reverse(),
        requestsTotal: timeline.requestsTotal,
      };
    },
    /** A session's transcript a page at a time, newest first. */
    'session.transcript': (p) => {
      const s = sessions.get(p.sessionId);
      const { items, total, nextCursor } = store.pageSessionTimeline(s.sessionId, p);
      return { transcript: items.map(timelineEntry), total, nextCursor };
    },
    'session.report': (p) => {
      const s = sessions.get(p.sessionId);
      return {
        markdown: readSessionReport(store, sessionDetail(sessions, store, s), d.clock.now()),
        filename: `gatehouse-report-${s.sessionId}.md`,
      };
    },
  } satisfies AdminHandlers<
    'sessions.list' | 'session.get' | 'session.transcript' | 'session.report'
  >;
}
