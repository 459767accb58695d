import type { Migration } from './migration';

/**
 * Decision links (signed capabilities, see main/remote/decision-token.ts):
 * - `used_link_nonces`: the nonce of every token that decided, so a replayed link or button
 *   is refused. A row is kept until its token has expired anyway (`expires_at`), then pruned.
 */
export const migration009: Migration = {
  version: 9,
  name: 'decision-links',
  up(db) {
    db.exec(`
      CREATE TABLE used_link_nonces (
        nonce       TEXT PRIMARY KEY,
        request_id  TEXT NOT NULL,
        used_at     INTEGER NOT NULL,
        expires_at  INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX used_link_nonces_expiry ON used_link_nonces(expires_at);
    `);
  },
};
