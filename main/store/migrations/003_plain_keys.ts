import type { Migration } from './migration';

/** The append-only tables whose keys were AUTOINCREMENT (nothing is ever deleted from them). */
const APPEND_ONLY_TABLES = ['audit', 'transcript', 'spend_ledger'] as const;

/**
 * Drops AUTOINCREMENT from the append-only tables. It made every insert also update the
 * table's row in `sqlite_sequence`, one more page in every commit's WAL write (the audit
 * table takes a row for nearly every agent call). Rows are never deleted from these tables,
 * so a plain INTEGER PRIMARY KEY (the largest key plus one) numbers them in the same order.
 */
export const migration003: Migration = {
  version: 3,
  name: 'plain-keys',
  up(db) {
    for (const table of APPEND_ONLY_TABLES) {
      const ddl = db
        .prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`)
        .pluck()
        .get(table) as string;
      const indexes = db
        .prepare(
          `SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`,
        )
        .pluck()
        .all(table) as string[];
      const rebuilt = ddl
        .replace(`CREATE TABLE ${table}`, `CREATE TABLE ${table}_rebuilt`)
        .replace(/\s+AUTOINCREMENT\b/i, '');
      db.exec(rebuilt);
      db.exec(`INSERT INTO ${table}_rebuilt SELECT * FROM ${table}`);
      db.exec(`DROP TABLE ${table}`);
      db.exec(`ALTER TABLE ${table}_rebuilt RENAME TO ${table}`);
      for (const index of indexes) db.exec(index);
    }
    db.prepare(
      `DELETE FROM sqlite_sequence WHERE name IN (${APPEND_ONLY_TABLES.map(() => '?').join(', ')})`,
    ).run(...APPEND_ONLY_TABLES);
  },
};
