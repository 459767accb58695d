import type Database from 'better-sqlite3';

/**
 * The parts of a session its report, summary and queue quota single out, each read through
 * a partial index of migration 014. SQLite uses a partial index only for a query whose WHERE
 * repeats the index's predicate word for word, so these texts are the indexes' predicates:
 * change one only together with a migration that rebuilds its index.
 */

/** A session's requests not approved (waiting, denied, cancelled …): `requests_unapproved`. */
export const UNAPPROVED = `status <> 'approved'`;
export const FROM_UNAPPROVED = 'requests INDEXED BY requests_unapproved';

/** A session's requests approved after they asked for a person: `requests_asked_approved`. */
export const ASKED_APPROVED = `status = 'approved' AND tier = 'ask'`;
export const FROM_ASKED_APPROVED = 'requests INDEXED BY requests_asked_approved';

/** Log entries in which an agent said it stopped: `transcript_stops`. */
export const STOP = `kind = 'log' AND json_extract(data_json, '$.type') IS 'stopped'`;
export const FROM_STOPS = 'transcript INDEXED BY transcript_stops';

type Raw = Record<string, unknown>;

/**
 * The first `limit` of a session's requests of some statuses (none `approved`), oldest
 * first, with the given columns (`request_key` among them). Each status is a range of
 * `requests_unapproved` in key order, read up to `limit` and merged: one query over all the
 * statuses would sort every match (however many a session has denied) to keep `limit`.
 */
export function firstUnapproved(
  db: Database.Database,
  sessionId: string,
  statuses: readonly string[],
  limit: number,
  columns = '*',
): Raw[] {
  if (statuses.includes('approved')) throw new Error('approved requests are not in this index');
  // Prepared per call: a report or a session's end runs it a few times, a query per status.
  const stmt: Database.Statement<[string, string, number], Raw> = db.prepare(
    `SELECT ${columns} FROM ${FROM_UNAPPROVED}
     WHERE session_id = ? AND status = ? AND ${UNAPPROVED} ORDER BY request_key LIMIT ?`,
  );
  const rows = [...new Set(statuses)].flatMap((status) => stmt.all(sessionId, status, limit));
  if (statuses.length > 1)
    rows.sort((a, b) => (a.request_key as number) - (b.request_key as number));
  return rows.slice(0, limit);
}
