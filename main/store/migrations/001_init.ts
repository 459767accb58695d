import type { Migration } from './migration';

/** The core schema: sessions, the review queue, grants, rules, transcripts, audit, settings. */
export const migration001: Migration = {
  version: 1,
  name: 'init',
  up(db) {
    db.exec(`
      CREATE TABLE sessions (
        session_id   TEXT PRIMARY KEY,
        agent        TEXT NOT NULL,
        session_key  TEXT,
        project      TEXT,
        labels_json  TEXT,
        status       TEXT NOT NULL,
        started_at   INTEGER NOT NULL,
        ended_at     INTEGER,
        last_seen_at INTEGER NOT NULL,
        -- Every request of this session has a larger rowid: a session's requests are found
        -- by scanning from here, not through an index that each insert had to update.
        requests_from INTEGER NOT NULL DEFAULT 0,
        cost_usd     REAL NOT NULL DEFAULT 0,
        summary_json TEXT
      );
      CREATE UNIQUE INDEX sessions_by_key ON sessions(agent, session_key) WHERE session_key IS NOT NULL;
      CREATE INDEX sessions_by_status ON sessions(status, started_at);

      CREATE TABLE requests (
        request_id      TEXT PRIMARY KEY,
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
      CREATE INDEX requests_open ON requests(status, created_at) WHERE status IN ('pending', 'timed_out');
      CREATE INDEX requests_by_dedupe ON requests(session_id, dedupe_key) WHERE dedupe_key IS NOT NULL;

      CREATE TABLE grants (
        grant_id          TEXT PRIMARY KEY,
        agent             TEXT NOT NULL,
        session_id        TEXT,
        action            TEXT NOT NULL,
        fingerprint       TEXT,
        uses_left         INTEGER,
        expires_at        INTEGER,
        max_spend_usd     REAL,
        spent_usd         REAL NOT NULL DEFAULT 0,
        source_request_id TEXT NOT NULL,
        kind              TEXT NOT NULL,
        created_at        INTEGER NOT NULL,
        ended_at          INTEGER
      );
      CREATE INDEX grants_live ON grants(agent, action) WHERE ended_at IS NULL;

      CREATE TABLE rules (
        rule_id    TEXT PRIMARY KEY,
        action     TEXT NOT NULL,
        tier       TEXT NOT NULL,
        project    TEXT,
        target     TEXT,
        source     TEXT NOT NULL,
        note       TEXT,
        created_at INTEGER NOT NULL
      );

      CREATE TABLE transcript (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL,
        at         INTEGER NOT NULL,
        kind       TEXT NOT NULL,
        text       TEXT NOT NULL,
        data_json  TEXT
      );
      CREATE INDEX transcript_by_session ON transcript(session_id, id);

      CREATE TABLE audit (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,
        at         INTEGER NOT NULL,
        type       TEXT NOT NULL,
        session_id TEXT,
        agent      TEXT,
        request_id TEXT,
        data_json  TEXT NOT NULL
      );

      CREATE TABLE agent_controls (
        agent      TEXT PRIMARY KEY,
        state      TEXT NOT NULL,
        reason     TEXT,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE settings (
        id         INTEGER PRIMARY KEY CHECK (id = 1),
        value_json TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `);
  },
};
