import type { Migration } from './migration';

/**
 * The team policy a joined machine runs (main/hub-link/team-policy-book.ts).
 * - `team_policy`: the one bundle accepted, exactly as the hub signed it (payload and
 *   signature), with the hub key it was checked against: it is checked again at each start,
 *   and it holds across restarts and while the hub is away. One row.
 * - `team_shadow`: each call a shadow rule would have decided otherwise; `sent` once the hub
 *   acknowledged it (`gatehouse hub policy shadow-report`).
 */
export const migration021: Migration = {
  version: 21,
  name: 'team-policy',
  up(db) {
    db.exec(`
      CREATE TABLE team_policy (
        id          INTEGER PRIMARY KEY CHECK (id = 1),
        version     INTEGER NOT NULL,
        payload     TEXT NOT NULL,
        signature   TEXT NOT NULL,
        hub_key     TEXT NOT NULL,
        accepted_at INTEGER NOT NULL
      );
      CREATE TABLE team_shadow (
        id      INTEGER PRIMARY KEY AUTOINCREMENT,
        at      INTEGER NOT NULL,
        body    TEXT NOT NULL,
        sent    INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX team_shadow_unsent ON team_shadow (id) WHERE sent = 0;
    `);
  },
};
