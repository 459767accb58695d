import type Database from 'better-sqlite3';
import { WAITING_STATUSES } from '../../shared/domain';
import { BY_PERSON_SQL } from './decided-by-sql';
import type { SessionSummaryFacts, SummaryRequest } from '../engine/sessions/sessions-store';
import {
  ASKED_APPROVED,
  FROM_ASKED_APPROVED,
  FROM_STOPS,
  FROM_UNAPPROVED,
  STOP,
  UNAPPROVED,
  firstUnapproved,
} from './session-subsets';

type Raw = Record<string, unknown>;

const NOT_STOP = `kind = 'log' AND json_extract(data_json, '$.type') IS NOT 'stopped'`;
/** Requests that still need a person: the session's end lists them to review. */
const UNSETTLED = [...WAITING_STATUSES, 'denied'] as const;
const REQUEST_COLUMNS = 'request_key, request_id, description, status, decided_by, reason';

const toRequest = (r: Raw): SummaryRequest => ({
  requestId: r.request_id as string,
  description: r.description as string,
  status: r.status as SummaryRequest['status'],
  ...(r.decided_by == null ? {} : { decidedBy: r.decided_by as SummaryRequest['decidedBy'] }),
  ...(r.reason == null ? {} : { reason: r.reason as string }),
});

/**
 * What a session's summary is made of, read through the session's indexes: the first `max`
 * of each list, oldest first, and how many there are in all. The lists other than the plain
 * log entries and every count are of the partial indexes of migration 014 (the stops, the
 * unapproved requests, the asked and approved ones): a summary of a session of a hundred
 * thousand requests reads a few hundred rows and walks no table.
 */
export class SessionSummaryQueries {
  private readonly logs;
  private readonly stops;
  private readonly asks;
  private readonly countLogs;
  private readonly countStops;
  private readonly countAsks;
  private readonly countUnsettled;
  private readonly humanApproved;

  constructor(private readonly db: Database.Database) {
    // The other log entries from the session's start: the first are nearly all of them.
    this.logs = db
      .prepare(
        `SELECT text FROM transcript WHERE session_id = ? AND ${NOT_STOP} ORDER BY id LIMIT ?`,
      )
      .pluck();
    this.stops = db
      .prepare(
        `SELECT text FROM ${FROM_STOPS} WHERE session_id = ? AND ${STOP} ORDER BY id LIMIT ?`,
      )
      .pluck();
    this.asks = db.prepare(
      `SELECT ${REQUEST_COLUMNS} FROM ${FROM_ASKED_APPROVED}
       WHERE session_id = ? AND ${ASKED_APPROVED} ORDER BY request_key LIMIT ?`,
    );
    // The log entries are counted without reading their JSON (the one walk of the session's
    // rows left, through transcript_by_session); the stops among them on their own index.
    this.countLogs = db
      .prepare(`SELECT COUNT(*) FROM transcript WHERE session_id = ? AND kind = 'log'`)
      .pluck();
    this.countStops = db
      .prepare(`SELECT COUNT(*) FROM ${FROM_STOPS} WHERE session_id = ? AND ${STOP}`)
      .pluck();
    this.countAsks = db
      .prepare(
        `SELECT COUNT(*) FROM ${FROM_ASKED_APPROVED} WHERE session_id = ? AND ${ASKED_APPROVED}`,
      )
      .pluck();
    this.countUnsettled = db
      .prepare(
        `SELECT COUNT(*) FROM ${FROM_UNAPPROVED}
         WHERE session_id = ? AND status IN (${UNSETTLED.map((st) => `'${st}'`).join(', ')}) AND ${UNAPPROVED}`,
      )
      .pluck();
    // Whether a person approved any: the first such row found, not a count.
    this.humanApproved = db
      .prepare(
        `SELECT 1 FROM ${FROM_ASKED_APPROVED}
         WHERE session_id = ? AND ${ASKED_APPROVED} AND ${BY_PERSON_SQL} LIMIT 1`,
      )
      .pluck();
  }

  sessionSummaryFacts(sessionId: string, max: number): SessionSummaryFacts {
    const stops = this.countStops.get(sessionId) as number;
    return {
      logs: {
        items: this.logs.all(sessionId, max) as string[],
        total: (this.countLogs.get(sessionId) as number) - stops,
      },
      stops: { items: this.stops.all(sessionId, max) as string[], total: stops },
      approvedAsks: {
        items: (this.asks.all(sessionId, max) as Raw[]).map(toRequest),
        total: this.countAsks.get(sessionId) as number,
      },
      unsettled: {
        items: firstUnapproved(this.db, sessionId, UNSETTLED, max, REQUEST_COLUMNS).map(toRequest),
        total: this.countUnsettled.get(sessionId) as number,
      },
      humanApproved: this.humanApproved.get(sessionId) === 1,
    };
  }
}
