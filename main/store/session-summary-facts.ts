import type Database from 'better-sqlite3';
import type { SessionSummaryFacts, SummaryRequest } from '../engine/store-port';

type Raw = Record<string, unknown>;

/** A log entry an agent wrote to say it stopped (`log` with `type: "stopped"`). */
const STOP = `kind = 'log' AND json_extract(data_json, '$.type') IS 'stopped'`;
const NOT_STOP = `kind = 'log' AND json_extract(data_json, '$.type') IS NOT 'stopped'`;
const APPROVED_ASK = `status = 'approved' AND tier = 'ask'`;
const UNSETTLED = `status IN ('pending', 'timed_out', 'denied')`;

const toRequest = (r: Raw): SummaryRequest => ({
  requestId: r.request_id as string,
  description: r.description as string,
  status: r.status as SummaryRequest['status'],
  ...(r.decided_by == null ? {} : { decidedBy: r.decided_by as SummaryRequest['decidedBy'] }),
  ...(r.reason == null ? {} : { reason: r.reason as string }),
});

/**
 * What a session's summary is made of, read through the session's indexes: the first `max`
 * of each list, oldest first, and how many there are in all, counted in SQL. A summary of a
 * session of a hundred thousand requests reads a few hundred rows' text, not the session.
 */
export class SessionSummaryQueries {
  private readonly logs;
  private readonly stops;
  private readonly asks;
  private readonly unsettled;
  private readonly countTranscript;
  private readonly countRequests;

  constructor(db: Database.Database) {
    const transcript = (where: string) =>
      db.prepare(
        `SELECT text FROM transcript WHERE session_id = ? AND ${where} ORDER BY id LIMIT ?`,
      );
    const requests = (where: string) =>
      db.prepare(
        `SELECT request_id, description, status, decided_by, reason FROM requests
         WHERE session_id = ? AND ${where} ORDER BY request_key LIMIT ?`,
      );
    this.logs = transcript(NOT_STOP).pluck();
    this.stops = transcript(STOP).pluck();
    this.asks = requests(APPROVED_ASK);
    this.unsettled = requests(UNSETTLED);
    // Every count of a table in one walk of the session's rows.
    this.countTranscript = db.prepare(
      `SELECT COALESCE(SUM(${NOT_STOP}), 0) AS logs, COALESCE(SUM(${STOP}), 0) AS stops
       FROM transcript WHERE session_id = ? AND kind = 'log'`,
    );
    this.countRequests = db.prepare(
      `SELECT COALESCE(SUM(${APPROVED_ASK}), 0) AS asks, COALESCE(SUM(${UNSETTLED}), 0) AS unsettled,
       COALESCE(MAX(status = 'approved' AND decided_by = 'human'), 0) AS human_approved
       FROM requests WHERE session_id = ?`,
    );
  }

  facts(sessionId: string, max: number): SessionSummaryFacts {
    const t = this.countTranscript.get(sessionId) as { logs: number; stops: number };
    const r = this.countRequests.get(sessionId) as {
      asks: number;
      unsettled: number;
      human_approved: number;
    };
    return {
      logs: { items: this.logs.all(sessionId, max) as string[], total: t.logs },
      stops: { items: this.stops.all(sessionId, max) as string[], total: t.stops },
      approvedAsks: {
        items: (this.asks.all(sessionId, max) as Raw[]).map(toRequest),
        total: r.asks,
      },
      unsettled: {
        items: (this.unsettled.all(sessionId, max) as Raw[]).map(toRequest),
        total: r.unsettled,
      },
      humanApproved: r.human_approved === 1,
    };
  }
}
