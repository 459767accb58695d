import Database from 'better-sqlite3';
import { chmodSync, existsSync } from 'node:fs';
import { migrations } from './migrations/index';

export interface OpenDatabaseOptions {
  /** Path of the database file; created with mode 0600 when missing. */
  file: string;
  /** Path of a better-sqlite3 native module built for another ABI (Electron). */
  nativeBinding?: string;
  /**
   * Largest size the database may grow to, in bytes (the WAL aside). Past it every write
   * fails as on a full disk (SQLITE_FULL), so a flooding agent cannot fill the person's disk.
   */
  maxBytes?: number;
}

/**
 * Opens the database in WAL mode and brings its schema up to date.
 *
 * `synchronous = NORMAL` in WAL mode keeps every committed transaction across a crash or
 * `kill -9` of Gatehouse (the WAL is in the OS page cache); only a power loss can drop the last
 * commits, which is the trade SQLite recommends for WAL.
 */
export function openDatabase(options: OpenDatabaseOptions): Database.Database {
  const isNew = !existsSync(options.file);
  const db = new Database(
    options.file,
    options.nativeBinding ? { nativeBinding: options.nativeBinding } : {},
  );
  if (isNew) chmodSync(options.file, 0o600);
  // Small pages: rows are small and the WAL writes whole pages, so every commit of an
  // audited call writes a quarter of the bytes it would with 4 KiB pages (measured: ~1.5x
  // the audited calls per second).
  if (isNew) db.pragma('page_size = 1024');
  // Before the first table: pruned history's pages can go back to the file system
  // (RetentionService runs `incremental_vacuum` after pruning).
  if (isNew) db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // Foreign keys stay declared but unenforced: the engine, the only writer, files a request
  // only for a session it has just read, and the check cost a fifth of an auto-approved
  // request's throughput (measured with A/B runs of bench/socket.bench.mjs).
  db.pragma('foreign_keys = OFF');
  db.pragma('busy_timeout = 5000');
  // Checkpoints run off the main thread (WalCheckpointer); see there why.
  db.pragma('wal_autocheckpoint = 0');
  migrate(db);
  enableIncrementalVacuum(db);
  if (options.maxBytes !== undefined) {
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.pragma(`max_page_count = ${Math.max(1, Math.floor(options.maxBytes / pageSize))}`);
  }
  return db;
}

/** Runs each migration newer than the file's `user_version`, each in its own transaction. */
export function migrate(db: Database.Database): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  let applied = 0;
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
    applied++;
  }
  return applied;
}

/** auto_vacuum's INCREMENTAL mode (pragma value 2). */
const INCREMENTAL = 2;

/**
 * Turns on incremental vacuum for a database made before it, so the pages retention
 * frees can be given back. On an existing file the mode only takes effect through a full
 * VACUUM, which rewrites the file once (about a second per 50 MB, at start) and cannot run
 * inside a migration's transaction; afterwards the mode is stored in the file and this is a
 * no-op. Returns whether it converted the file.
 */
export function enableIncrementalVacuum(db: Database.Database): boolean {
  if (db.pragma('auto_vacuum', { simple: true }) === INCREMENTAL) return false;
  const started = Date.now();
  console.error('gatehouse: rewriting the database once to turn on incremental vacuum…');
  db.pragma('auto_vacuum = INCREMENTAL');
  db.exec('VACUUM');
  console.error(`gatehouse: database rewritten in ${Date.now() - started} ms`);
  return true;
}
