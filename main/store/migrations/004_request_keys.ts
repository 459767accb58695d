import type { Migration } from './migration';

/**
 * Keys requests by the number their id spells (`request_key`, the table's rowid) instead of
 * by the id text. The text key needed an index of its own, which every insert updated and
 * every commit wrote to the WAL; now the table is the only B-tree an auto-approved request
 * touches. `request_id` stays as it is shown and typed.
 *
 * A session's requests are found by scanning rowids from `sessions.requests_from`; the
 * rowids change here, so each session's mark moves to just before its first request (or to
 * the newest key, for a session with none yet).
 */
export const migration004: Migration = {
  version: 4,
  name: 'request-keys',
  up(db) {
    // An id of another shape (none are made, but a database may hold one) gets a negative
    // key: unique, and found through the id text (see RequestsRepository.get).
    db.function('gatehouse_request_key', { deterministic: true }, (id: unknown, rowid: unknown) => {
      const key = typeof id === 'string' ? idOrdinal(id) : undefined;
      return key ?? -Number(rowid);
    });
    db.exec(`
      CREATE TABLE requests_rebuilt (
        request_key     INTEGER PRIMARY KEY,
        request_id      TEXT NOT NULL,
        session_id      TEXT NOT NULL REFERENCES sessions(session_id),
        agent           TEXT NOT NULL,
        project         TEXT,
        action          TEXT NOT NULL,
        description     TEXT NOT NULL,
        rationale       TEXT,
        urgency         TEXT NOT NULL,
        target          TEXT,
        command         TEXT,
        paths_json      TEXT,
        context_json    TEXT,
        dedupe_key      TEXT,
        fingerprint     TEXT NOT NULL,
        status          TEXT NOT NULL,
        tier            TEXT NOT NULL,
        rule            TEXT NOT NULL,
        rule_reason     TEXT NOT NULL,
        created_at      INTEGER NOT NULL,
        timeout_at      INTEGER,
        decided_at      INTEGER,
        decided_by      TEXT,
        scope           TEXT,
        message         TEXT,
        reason          TEXT,
        conditions_json TEXT
      );
      INSERT INTO requests_rebuilt
        SELECT gatehouse_request_key(request_id, rowid), * FROM requests ORDER BY rowid;

      CREATE TEMP TABLE first_request (session_id TEXT PRIMARY KEY, first_key INTEGER NOT NULL);
      INSERT INTO first_request
        SELECT session_id, MIN(request_key) FROM requests_rebuilt GROUP BY session_id;
      UPDATE sessions SET requests_from = COALESCE(
        (SELECT first_key - 1 FROM first_request f WHERE f.session_id = sessions.session_id),
        (SELECT COALESCE(MAX(request_key), 0) FROM requests_rebuilt));
      DROP TABLE first_request;

      DROP TABLE requests;
      ALTER TABLE requests_rebuilt RENAME TO requests;
      CREATE INDEX requests_open ON requests(status, created_at) WHERE status IN ('pending', 'timed_out');
      CREATE INDEX requests_by_dedupe ON requests(session_id, dedupe_key) WHERE dedupe_key IS NOT NULL;
    `);
  },
};

/**
 * The number an id spells, as ids were written when this migration was released. A frozen
 * copy of the engine's `idOrdinal` of that time: a released migration must not change when
 * live code does.
 */
const ALPHABET_V4 = '0123456789abcdefghjkmnpqrstvwxyz';
function idOrdinal(id: string): number | undefined {
  const dash = id.indexOf('-');
  const suffix = id.slice(dash + 1);
  if (dash < 1 || suffix.length === 0 || suffix.length > 10) return undefined;
  let value = 0;
  for (const char of suffix) {
    const digit = ALPHABET_V4.indexOf(char);
    if (digit < 0) return undefined;
    value = value * 32 + digit;
  }
  return value;
}
