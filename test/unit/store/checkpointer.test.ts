import type Database from 'better-sqlite3';
import { mkdtempSync, openSync, readSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WalCheckpointer } from '../../../main/store/checkpointer';
import { openDatabase } from '../../../main/store/database';

/** The WAL header's checkpoint sequence number: SQLite adds one each time it starts the WAL over. */
function walRestarts(file: string): number {
  const fd = openSync(`${file}-wal`, 'r');
  try {
    const header = Buffer.alloc(16);
    readSync(fd, header, 0, 16, 0);
    return header.readUInt32BE(12);
  } finally {
    closeSync(fd);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The WAL checkpointer (main/store/checkpointer.ts) copies frames only once enough are waiting:
 * a copy of everything makes SQLite start the WAL over, fsyncing a new header inside the next
 * commit, before that commit's answer goes out.
 */
describe('the WAL checkpointer', () => {
  let dir: string;
  let file: string;
  let db: Database.Database;
  let checkpointer: WalCheckpointer | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-wal-'));
    file = join(dir, 'gatehouse.db');
    db = openDatabase({ file });
    db.exec('CREATE TABLE scratch (x TEXT)');
  });
  afterEach(async () => {
    await checkpointer?.stop();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every 10 ms, copying from 256 KiB uncopied. */
  const startCheckpointer = () =>
    new WalCheckpointer({
      db,
      file,
      writerIdle: () => !db.inTransaction,
      intervalMs: 10,
      checkpointAtWalBytes: 256 * 1024,
    });
  const insert = (bytes: number) =>
    db.prepare('INSERT INTO scratch VALUES (?)').run('x'.repeat(bytes));

  it('leaves a WAL with little in it alone, so calls spaced apart never restart it', async () => {
    checkpointer = startCheckpointer();
    insert(100);
    const before = walRestarts(file);
    for (let i = 0; i < 10; i++) {
      await sleep(30);
      insert(100);
    }
    expect(walRestarts(file)).toBe(before);
  });

  it('copies the frames once enough are waiting, and the WAL then starts over', async () => {
    checkpointer = startCheckpointer();
    insert(100);
    const before = walRestarts(file);
    for (let i = 0; i < 40; i++) insert(10_000);
    const giveUp = Date.now() + 5000;
    while (walRestarts(file) === before && Date.now() < giveUp) {
      await sleep(20);
      insert(100);
    }
    expect(walRestarts(file)).toBeGreaterThan(before);
    expect(db.prepare('SELECT COUNT(*) FROM scratch').pluck().get()).toBeGreaterThan(41);
  });
});
