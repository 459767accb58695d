import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Another Gatehouse holds the data folder's lock. */
export class DataFolderInUseError extends Error {
  constructor(
    readonly home: string,
    readonly holderPid?: number,
  ) {
    super(
      `another Gatehouse${holderPid ? ` (pid ${holderPid})` : ''} is already using the data folder ${home}; stop it first, or set GATEHOUSE_HOME to another folder (and GATEHOUSE_SOCKET to another socket) to run a second Gatehouse`,
    );
    this.name = 'DataFolderInUseError';
  }
}

export interface DataFolderLock {
  release(): void;
}

const lockFile = (home: string): string => join(home, 'daemon.lock');
const pidFile = (home: string): string => join(home, 'daemon.pid');

/**
 * One Gatehouse per data folder: two on one database each keep their own caches and ids
 * (rules added on one unseen by the other, clashing audit sequence numbers). The socket
 * cannot decide it, since GATEHOUSE_SOCKET may differ; so the daemon holds an exclusive
 * lock on `daemon.lock` in the data folder for its whole life.
 *
 * The lock is SQLite's own (an exclusive transaction on a small database file, in
 * `locking_mode = EXCLUSIVE`): POSIX advisory locks on Unix, LockFileEx on Windows, which
 * the operating system drops when the process dies however it dies, so a crash never leaves
 * a stale lock behind, and SQLite keeps the rules right between two connections of one
 * process as well. Node has no `flock` of its own.
 */
export function lockDataFolder(home: string, nativeBinding?: string): DataFolderLock {
  const db = new Database(lockFile(home), {
    timeout: 0,
    ...(nativeBinding ? { nativeBinding } : {}),
  });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY')
      throw new DataFolderInUseError(home, holderPid(home));
    throw error;
  }
  // For the message a second start prints; the lock, not this file, decides.
  try {
    writeFileSync(pidFile(home), `${process.pid}\n`, { mode: 0o600 });
  } catch {
    /* only informative */
  }
  return {
    release() {
      if (db.open) db.close();
    },
  };
}

function holderPid(home: string): number | undefined {
  try {
    const pid = Number(readFileSync(pidFile(home), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
