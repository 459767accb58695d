import type { Migration } from './migration';

/**
 * A session's and an agent's requests through tables of keys written in bulk
 * (main/store/request-key-index.ts) instead of the indexes `requests_by_session` (011) and
 * `requests_by_agent` (010), which every filed request wrote an entry of, one page per
 * session in every commit. Every request there is now has its entries and the mark is
 * its newest key.
 *
 * The triggers keep the tables true whoever writes the requests: a deleted request takes its
 * entries with it; one inserted at or below the mark gets its entries at once (keys rise with
 * time, so the engine's never are); one whose session or agent changes has them moved.
 */
export const migration019: Migration = {
  version: 19,
  name: 'request-key-tables',
  up(db) {
    db.exec(`
      CREATE TABLE session_request_keys (
        session_id  TEXT NOT NULL,
        request_key INTEGER NOT NULL,
        PRIMARY KEY (session_id, request_key)
      ) WITHOUT ROWID;
      CREATE TABLE agent_request_keys (
        agent       TEXT NOT NULL,
        request_key INTEGER NOT NULL,
        PRIMARY KEY (agent, request_key)
      ) WITHOUT ROWID;
      CREATE TABLE request_keys_mark (
        id      INTEGER PRIMARY KEY CHECK (id = 1),
        through INTEGER NOT NULL
      );
      INSERT INTO session_request_keys
        SELECT session_id, request_key FROM requests ORDER BY session_id, request_key;
      INSERT INTO agent_request_keys
        SELECT agent, request_key FROM requests ORDER BY agent, request_key;
      INSERT INTO request_keys_mark
        VALUES (1, COALESCE((SELECT MAX(request_key) FROM requests), ${Number.MIN_SAFE_INTEGER}));
      DROP INDEX requests_by_session;
      DROP INDEX requests_by_agent;

      CREATE TRIGGER request_keys_request_gone AFTER DELETE ON requests
      BEGIN
        DELETE FROM session_request_keys
          WHERE session_id = OLD.session_id AND request_key = OLD.request_key;
        DELETE FROM agent_request_keys WHERE agent = OLD.agent AND request_key = OLD.request_key;
      END;
      CREATE TRIGGER request_keys_filed_below_mark AFTER INSERT ON requests
      WHEN NEW.request_key <= (SELECT through FROM request_keys_mark)
      BEGIN
        INSERT OR IGNORE INTO session_request_keys VALUES (NEW.session_id, NEW.request_key);
        INSERT OR IGNORE INTO agent_request_keys VALUES (NEW.agent, NEW.request_key);
      END;
      CREATE TRIGGER request_keys_moved AFTER UPDATE OF session_id, agent ON requests
      WHEN OLD.request_key <= (SELECT through FROM request_keys_mark)
      BEGIN
        DELETE FROM session_request_keys
          WHERE session_id = OLD.session_id AND request_key = OLD.request_key;
        DELETE FROM agent_request_keys WHERE agent = OLD.agent AND request_key = OLD.request_key;
        INSERT OR IGNORE INTO session_request_keys VALUES (NEW.session_id, NEW.request_key);
        INSERT OR IGNORE INTO agent_request_keys VALUES (NEW.agent, NEW.request_key);
      END;
    `);
  },
};
