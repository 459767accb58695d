import type { Migration } from './migration';

/**
 * The requests and transcript rows that a session's report and summary single out, each set
 * in a partial index of its own. Measured on a session of 100k requests and 100k
 * transcript rows (bench/session-detail.bench.mjs): the report, the summary at a session's
 * end and the queue's per-session quota walked every row of the session through its index
 * and read each table row to test it: counting requests by status (~60 ms), the first
 * waiting or denied requests when there were none (~50 ms each), the session's open requests
 * (~45 ms, inside the write of every request that waits for a person), the stops in its
 * transcript (~25 ms listed, as much again counted).
 *
 * - `requests_unapproved`: a session's requests not approved (waiting, denied, cancelled …),
 *   by status; each status is a range in key order (the key is the index's tail), and
 *   counted on the index alone.
 * - `requests_asked_approved`: a session's requests a person or a grant approved after they
 *   asked (tier `ask`).
 * - `transcript_stops`: the log entries in which an agent said it stopped.
 *
 * Partial, so that what matters for cost, a request approved by policy as it is filed and a
 * plain log entry, touches none of them: filing costs what it did. A query reaches one only
 * by repeating its predicate word for word (SQLite's rule for partial indexes): see
 * main/store/session-subsets.ts.
 */
export const migration014: Migration = {
  version: 14,
  name: 'session-subset-indexes',
  up(db) {
    db.exec(`
      CREATE INDEX requests_unapproved ON requests(session_id, status)
        WHERE status <> 'approved';
      CREATE INDEX requests_asked_approved ON requests(session_id)
        WHERE status = 'approved' AND tier = 'ask';
      CREATE INDEX transcript_stops ON transcript(session_id)
        WHERE kind = 'log' AND json_extract(data_json, '$.type') IS 'stopped';
    `);
  },
};
