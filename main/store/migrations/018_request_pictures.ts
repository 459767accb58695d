import type { Migration } from './migration';

/**
 * What a request carries beyond its line (shared/request-picture/): its diff, its push, its
 * command breakdown, as JSON, one row per request that has one. A table of its own, not a
 * column of `requests`: a picture is written after the request is filed (it is computed
 * from disk and git without holding the agent's answer), is read only when one request is
 * opened, and can be large, so the queue's pages never read it. A request deleted by
 * retention takes its picture with it (the trigger).
 */
export const migration018: Migration = {
  version: 18,
  name: 'request-pictures',
  up(db) {
    db.exec(`
      CREATE TABLE request_pictures (
        request_id TEXT PRIMARY KEY,
        created_at INTEGER NOT NULL,
        picture    TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE TRIGGER request_pictures_request_gone AFTER DELETE ON requests
      BEGIN
        DELETE FROM request_pictures WHERE request_id = OLD.request_id;
      END;
    `);
  },
};
