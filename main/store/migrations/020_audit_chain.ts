import type { Migration } from './migration';

/**
 * The audit chain (main/audit/): a record no one can quietly rewrite.
 *
 * - `audit_chain`: one row per audit entry (an audit row, or a request that is its own entry,
 *   migration 005), holding the hash that chains it to the entry before it. A table of its
 *   own rather than a column, because entries are sealed after they are written (off the
 *   agents' path, once a folded entry can no longer change) and a request row's entry has no
 *   audit row to hold it.
 * - `audit_checkpoints`: the chain's head at a moment, signed with the daemon's key; verify
 *   needs them to tell a rewritten chain from a true one.
 * - `audit_chain_base`: where the chain starts after retention removed whole checkpointed
 *   segments (a signed checkpoint); entries at or below it are no longer checked.
 */
export const migration020: Migration = {
  version: 20,
  name: 'audit-chain',
  up(db) {
    db.exec(`
      CREATE TABLE audit_chain (
        seq  INTEGER PRIMARY KEY,
        hash BLOB NOT NULL
      );
      CREATE TABLE audit_checkpoints (
        seq        INTEGER PRIMARY KEY,
        hash       TEXT NOT NULL,
        at         INTEGER NOT NULL,
        through_at INTEGER NOT NULL,
        entries    INTEGER NOT NULL,
        public_key TEXT NOT NULL,
        signature  TEXT NOT NULL
      );
      CREATE TABLE audit_chain_base (
        id   INTEGER PRIMARY KEY CHECK (id = 1),
        seq  INTEGER NOT NULL,
        hash TEXT NOT NULL
      );
    `);
  },
};
