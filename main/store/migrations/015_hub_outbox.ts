import type { Migration } from './migration';

/**
 * A joined machine's link to the team hub.
 * - `hub_outbox`: what the machine still has to publish, in order (`seq`); a row goes once the
 *   hub acknowledged it, so an outage or a crash loses nothing and replays in order.
 * - `hub_published`: each request published, with the last status put in the outbox, so that
 *   a start after a crash finds the changes the outbox missed (see HubOutboxRepository.owed).
 * - `hub_decisions`: each hub decision the machine received, and what became of it: a
 *   decision is applied once, and a replay of it is answered the same way, never applied again.
 */
export const migration015: Migration = {
  version: 15,
  name: 'hub-outbox',
  up(db) {
    db.exec(`
      CREATE TABLE hub_outbox (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,
        kind       TEXT NOT NULL,
        request_id TEXT NOT NULL,
        body       TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE hub_published (
        request_id TEXT PRIMARY KEY,
        status     TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE hub_decisions (
        decision_id TEXT PRIMARY KEY,
        request_id  TEXT NOT NULL,
        outcome     TEXT NOT NULL,
        detail      TEXT,
        at          INTEGER NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
