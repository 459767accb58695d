import type { Migration } from './migration';
import { BLOCKED_SQL, RANKED_SQL, filedRankedUrgency, type FiledFacts } from '../attention-pages';

/**
 * The review queue in attention order a page at a time (main/store/attention-pages.ts).
 * Ranking by inferred urgency ran a function over every waiting request and sorted them all
 * for each page (110 ms for the first page with 50k waiting):
 * - `requests.ranked_urgency`: the urgency inferred when the request was filed (the only
 *   later change, a blocked agent waiting long, is a bound on `created_at`); filled here for
 *   the requests waiting now, the only ones the queue reads.
 * - `requests_queue`: the waiting requests by (blocked, urgency, ranked urgency), oldest
 *   first within each: every rank of the queue is a few ranges of it. Partial, so a request
 *   settled as it is filed never touches it.
 */
export const migration025: Migration = {
  version: 25,
  name: 'queue-order-index',
  up(db) {
    db.exec('ALTER TABLE requests ADD COLUMN ranked_urgency TEXT');
    const waiting = db
      .prepare(
        `SELECT request_key AS key, urgency, rule, target, command, action, status,
         timeout_at AS timeoutAt, created_at AS createdAt
         FROM requests WHERE status IN ('pending', 'timed_out')`,
      )
      .all() as (FiledFacts & { key: number })[];
    const set = db.prepare('UPDATE requests SET ranked_urgency = ? WHERE request_key = ?');
    for (const row of waiting) set.run(filedRankedUrgency(row), row.key);
    db.exec(`CREATE INDEX requests_queue ON requests(${BLOCKED_SQL}, urgency, ${RANKED_SQL},
      created_at, request_key) WHERE status IN ('pending', 'timed_out')`);
  },
};
