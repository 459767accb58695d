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
  private readonly countLogs;
  private readonly stops;
  private readonly countStops;
  private readonly asks;
  private readonly countAsks;
  private readonly unsettled;
  private readonly countUnsettled;
  private readonly humanApproved;

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
    const count = (table: string, where: string) =>
      db.prepare(`SELECT COUNT(*) FROM ${table} WHERE session_id = ? AND ${where}`).pluck();
    this.logs = transcript(NOT_STOP).pluck();
    this.countLogs = count('transcript', NOT_STOP);
    this.stops = transcript(STOP).pluck();
    this.countStops = count('transcript', STOP);
    this.asks = requests(APPROVED_ASK);
    this.countAsks = count('requests', APPROVED_ASK);
    this.unsettled = requests(UNSETTLED);
    this.countUnsettled = count('requests', UNSETTLED);
    this.humanApproved = db
      .prepare(
        `SELECT EXISTS (SELECT 1 FROM requests WHERE session_id = ? AND status = 'approved'
         AND decided_by = 'human')`,
      )
      .pluck();
  }

  facts(sessionId: string, max: number): SessionSummaryFacts {
    return {
      logs: {
        items: this.logs.all(sessionId, max) as string[],
        total: this.countLogs.get(sessionId) as number,
      },
      stops: {
        items: this.stops.all(sessionId, max) as string[],
        total: this.countStops.get(sessionId) as number,
      },
      approvedAsks: {
        items: (this.asks.all(sessionId, max) as Raw[]).map(toRequest),
        total: this.countAsks.get(sessionId) as number,
      },
      unsettled: {
        items: (this.unsettled.all(sessionId, max) as Raw[]).map(toRequest),
        total: this.countUnsettled.get(sessionId) as number,
      },
      humanApproved: this.humanApproved.get(sessionId) === 1,
    };
  }
}
