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
 * the tail (a range of keys, at most {@link TAIL_CAP} rows). Once the tail holds
 * {@link TAIL_ROWS}, it is indexed a chunk of that many at a time when the daemon is idle
 * (main/store/request-tail-indexer.ts), or inline by the request that takes it past TAIL_CAP:
 * each session's page is then written once for many new entries. A read is the tail's part
 * (the newest keys) and the key tables' part (the older ones), concatenated in key order.
 *
 * Kept true by SQL alone, whoever writes: a request deleted (retention) takes its entries with
 * it, a request inserted at or below the mark (keys are time-ordered and rise, but the
 * schema does not forbid it) gets its entries as it is inserted, and a request whose session
 * or agent changes has its entries moved (the triggers of migration 019).
 */

/**
 * How many requests the tail holds before it is worth indexing: each bulk write costs a page per
 * session and agent that filed (the WAL's unit), so larger is cheaper to file: with 64
 * sessions filing, 256 cost 5.5 µs a request above no index at all, 1,024 about 3 µs (the two
 * indexes cost 6.3). It is also the size of one chunk: the tail is indexed TAIL_ROWS at a time.
 */
export const TAIL_ROWS = 1024;

/**
 * How long the tail may grow while the daemon is never idle. The tail is indexed when the event
 * loop is idle (RequestTailIndexer), so that no agent's call pays for it: at 64 connections
 * filing without a pause it was a tenth of the daemon's time per request, and the call that
 * filled the tail waited 2-3 ms for it. Past this many, the request that adds to the tail indexes a
 * chunk of it inline, as every request once did, so the tail stays bounded under any flood.
 * Every read of a session or an agent walks the tail: 65,536 rows take about 10 ms.
 */
export const TAIL_CAP = 64 * TAIL_ROWS;

/** The mark: every request with a key up to it has its key entries. */
export const MARK_SQL = '(SELECT through FROM request_keys_mark)';

/** The requests after the mark (not in the key tables yet). */
export const TAIL_SQL = `request_key > ${MARK_SQL}`;

/** The mark of an empty table: below every key, negative keys of old ids included. */
export const NO_MARK = Number.MIN_SAFE_INTEGER;

/**
 * SQL that indexes the tail up to the key `@upTo` and moves the mark there, a statement each.
 * Not sorted by session first: a page is written to the WAL once per commit however many of its
 * entries changed, and sorting cost more than it saved (measured).
 */
export const INDEX_TAIL_STATEMENTS = [
  `INSERT OR IGNORE INTO session_request_keys (session_id, request_key)
    SELECT session_id, request_key FROM requests WHERE ${TAIL_SQL} AND request_key <= @upTo`,
  `INSERT OR IGNORE INTO agent_request_keys (agent, request_key)
    SELECT agent, request_key FROM requests WHERE ${TAIL_SQL} AND request_key <= @upTo`,
  `UPDATE request_keys_mark SET through = MAX(through, @upTo)`,
] as const;

/** The newest key among the oldest `@rows` of the tail: where a chunk of that many ends. */
const CHUNK_END_SQL = `SELECT MAX(request_key) FROM
  (SELECT request_key FROM requests WHERE ${TAIL_SQL} ORDER BY request_key LIMIT @rows)`;

/** The statements, prepared once per database. */
const prepared = new WeakMap<Database.Database, (rows: number) => number>();

/**
 * Indexes the oldest `rows` of the tail (all of it by default), in one transaction or a
 * savepoint of the caller's. Returns how many requests it indexed.
 */
export function indexRequestTail(db: Database.Database, rows = Number.MAX_SAFE_INTEGER): number {
  let run = prepared.get(db);
  if (!run) {
    const [sessions, agents, mark] = INDEX_TAIL_STATEMENTS;
    const writeSessions = db.prepare(sessions);
    const writeAgents = db.prepare(agents);
    const moveMark = db.prepare(mark);
    const chunkEnd = db.prepare(CHUNK_END_SQL).pluck();
    run = db.transaction((rows: number) => {
      const upTo = chunkEnd.get({ rows }) as number | null;
      if (upTo === null) return 0;
      const indexed = writeSessions.run({ upTo }).changes;
      writeAgents.run({ upTo });
      moveMark.run({ upTo });
      return indexed;
    });
    prepared.set(db, run);
  }
  return run(rows);
}

/** How many requests the tail holds now. */
export function countRequestTail(db: Database.Database): number {
  return db.prepare(`SELECT COUNT(*) FROM requests WHERE ${TAIL_SQL}`).pluck().get() as number;
}
