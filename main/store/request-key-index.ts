import type Database from 'better-sqlite3';

/**
 * A session's requests and an agent's requests, found through two tables of keys
 * (`session_request_keys`, `agent_request_keys`, migration 019) that are written in bulk
 * rather than one entry per filed request.
 *
 * Why: an index on `requests(session_id)` took one entry per request, at the place of its
 * session; with many sessions filing at once each commit wrote one index page per session to
 * the WAL (with 64 sessions, more pages than the rows themselves): 5.5 µs of the 12.8 µs of
 * CPU one auto-approved request cost its insert, and the agent's index another 2.8 µs.
 *
 * How: every request with a key up to the mark (`request_keys_mark.through`) has its entries
 * in both tables; the requests after it, the tail, have none yet and are found by walking
 * the tail (a range of keys, at most a few hundred rows). Every {@link TAIL_ROWS} filed
 * requests the tail is indexed at once, sorted by session and by agent, so each session's
 * entries go into its page together. A read is the tail's part (the newest keys) and the
 * key tables' part (the older ones), concatenated in key order.
 *
 * Kept true by SQL alone, whoever writes: a request deleted (retention) takes its entries with
 * it, a request inserted at or below the mark (keys are time-ordered and rise, but the
 * schema does not forbid it) gets its entries as it is inserted, and a request whose session
 * or agent changes has its entries moved (the triggers of migration 019).
 */

/** How many requests the tail holds before it is indexed. */
export const TAIL_ROWS = 256;

/** The mark: every request with a key up to it has its key entries. */
export const MARK_SQL = '(SELECT through FROM request_keys_mark)';

/** The requests after the mark (not in the key tables yet). */
export const TAIL_SQL = `request_key > ${MARK_SQL}`;

/** The mark of an empty table: below every key, negative keys of old ids included. */
export const NO_MARK = Number.MIN_SAFE_INTEGER;

/** SQL that indexes the tail and moves the mark to the newest request. */
export const INDEX_TAIL_SQL = `
  INSERT OR IGNORE INTO session_request_keys (session_id, request_key)
    SELECT session_id, request_key FROM requests WHERE ${TAIL_SQL}
    ORDER BY session_id, request_key;
  INSERT OR IGNORE INTO agent_request_keys (agent, request_key)
    SELECT agent, request_key FROM requests WHERE ${TAIL_SQL}
    ORDER BY agent, request_key;
  UPDATE request_keys_mark
    SET through = MAX(through, COALESCE((SELECT MAX(request_key) FROM requests), through));
`;

/** Indexes the tail (in one transaction, or a savepoint of the caller's). */
export function indexRequestTail(db: Database.Database): void {
  db.transaction(() => db.exec(INDEX_TAIL_SQL))();
}

/** How many requests the tail holds now. */
export function countRequestTail(db: Database.Database): number {
  return db.prepare(`SELECT COUNT(*) FROM requests WHERE ${TAIL_SQL}`).pluck().get() as number;
}
