import type Database from 'better-sqlite3';

/**
 * A session's requests and an agent's requests, found through two tables of keys
 * (`session_request_keys`, `agent_request_keys`, migration 019) that are written in bulk
 * rather than one entry per filed request.
 *
 * Why: an index on `requests(session_id)` took one entry per request, at the place of its
 * session; with many sessions filing at once each commit wrote one index page per session to
 * the WAL (with 64 sessions, more pages than the rows themselves). Filing a request cost
 * 11.5 µs of CPU with it and the agent's index, 5.2 µs without either (64 sessions, 8
 * agents, 64 requests a commit; session 9 measured the session's index alone at 5.5 µs).
 *
 * How: every request with a key up to the mark (`request_keys_mark.through`) has its entries
 * in both tables; the requests after it, the tail, have none yet and are found by walking
 * the tail (a range of keys, at most {@link TAIL_ROWS} rows). Every TAIL_ROWS filed requests
 * the tail is indexed at once, in the transaction of the request that filled it: each
 * session's page is then written once for all its new entries. A read is the tail's part
 * (the newest keys) and the key tables' part (the older ones), concatenated in key order.
 *
 * Kept true by SQL alone, whoever writes: a request deleted (retention) takes its entries with
 * it, a request inserted at or below the mark (keys are time-ordered and rise, but the
 * schema does not forbid it) gets its entries as it is inserted, and a request whose session
 * or agent changes has its entries moved (the triggers of migration 019).
 */

/**
 * How many requests the tail holds before it is indexed. Each bulk write costs a page per
 * session and agent that filed (the WAL's unit), so larger is cheaper to file: with 64
 * sessions filing, 256 cost 5.5 µs a request above no index at all, 1,024 about 3 µs (the two
 * indexes cost 6.3). Every read of a session or an agent walks the tail: at most this many
 * rows, a fraction of a millisecond.
 */
export const TAIL_ROWS = 1024;

/** The mark: every request with a key up to it has its key entries. */
export const MARK_SQL = '(SELECT through FROM request_keys_mark)';

/** The requests after the mark (not in the key tables yet). */
export const TAIL_SQL = `request_key > ${MARK_SQL}`;

/** The mark of an empty table: below every key, negative keys of old ids included. */
export const NO_MARK = Number.MIN_SAFE_INTEGER;

/**
 * SQL that indexes the tail and moves the mark to the newest request, a statement each. Not
 * sorted by session first: a page is written to the WAL once per commit however many of its
 * entries changed, and sorting cost more than it saved (measured).
 */
export const INDEX_TAIL_STATEMENTS = [
  `INSERT OR IGNORE INTO session_request_keys (session_id, request_key)
    SELECT session_id, request_key FROM requests WHERE ${TAIL_SQL}`,
  `INSERT OR IGNORE INTO agent_request_keys (agent, request_key)
    SELECT agent, request_key FROM requests WHERE ${TAIL_SQL}`,
  `UPDATE request_keys_mark
    SET through = MAX(through, COALESCE((SELECT MAX(request_key) FROM requests), through))`,
] as const;

/** The statements, prepared once per database (a flush runs every TAIL_ROWS requests). */
const prepared = new WeakMap<Database.Database, () => void>();

/** Indexes the tail (in one transaction, or a savepoint of the caller's). */
export function indexRequestTail(db: Database.Database): void {
  let run = prepared.get(db);
  if (!run) {
    const statements = INDEX_TAIL_STATEMENTS.map((sql) => db.prepare(sql));
    run = db.transaction(() => {
      for (const s of statements) s.run();
    });
    prepared.set(db, run);
  }
  run();
}

/** How many requests the tail holds now. */
export function countRequestTail(db: Database.Database): number {
  return db.prepare(`SELECT COUNT(*) FROM requests WHERE ${TAIL_SQL}`).pluck().get() as number;
}
