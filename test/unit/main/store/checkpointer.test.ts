import type Database from 'better-sqlite3';
import { mkdtempSync, openSync, readSync, closeSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WalCheckpointer } from '../../../../main/store/checkpointer';
import { openDatabase } from '../../../../main/store/database';

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
    // The migrations' own frames are copied first: each test starts from an empty WAL, not
    // from one that more migrations could push past the checkpointer's bound.
    db.pragma('wal_checkpoint(TRUNCATE)');
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
    // The bound only ends a failing run: on a loaded machine the worker (a thread that loads
    // better-sqlite3) can take seconds to start, and the loop ends as soon as the WAL restarts.
    const giveUp = Date.now() + 20_000;
    while (walRestarts(file) === before && Date.now() < giveUp) {
      await sleep(20);
      insert(100);
    }
    expect(walRestarts(file)).toBeGreaterThan(before);
    expect(db.prepare('SELECT COUNT(*) FROM scratch').pluck().get()).toBeGreaterThan(41);
  });

  /**
   * A WAL past maxWalBytes is started over with a RESTART (the file is overwritten
   * from its start, not truncated: truncating stalled every agent for 70-170 ms), and the file
   * a burst grew is truncated once nothing has been written for a while.
   */
  it('starts a long WAL over while writes go on, and truncates its file once writes stop', async () => {
    const maxWalBytes = 512 * 1024;
    checkpointer = new WalCheckpointer({
      db,
      file,
      writerIdle: () => !db.inTransaction,
      intervalMs: 10,
      checkpointAtWalBytes: 64 * 1024,
      maxWalBytes,
    });
    insert(100);
    const before = walRestarts(file);
    // Sustained writes, spaced so that the checkpointer's ticks come between them.
    const until = Date.now() + 10_000;
    while (walRestarts(file) === before && Date.now() < until) {
      for (let i = 0; i < 20; i++) insert(2_000);
      await sleep(2);
    }
    expect(walRestarts(file)).toBeGreaterThan(before);
    // Started over, not truncated: the file keeps the length it had.
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(maxWalBytes / 2);
    for (let i = 0; i < 400; i++) insert(2_000);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(maxWalBytes);
    // Quiet: the grown file is given back.
    const quietUntil = Date.now() + 10_000;
    while (statSync(`${file}-wal`).size > maxWalBytes && Date.now() < quietUntil) await sleep(20);
    expect(statSync(`${file}-wal`).size).toBeLessThanOrEqual(maxWalBytes);
  });

  /**
   * Calls that write nothing (`classify`, `check`) keep the daemon busy all the same: the
   * truncation (a 200 ms stall on the main thread was measured) waits for an idle event loop,
   * not merely for a pause in the writes.
   */
  it('does not truncate the grown file while the event loop serves calls that write nothing', async () => {
    const maxWalBytes = 512 * 1024;
    checkpointer = new WalCheckpointer({
      db,
      file,
      writerIdle: () => !db.inTransaction,
      intervalMs: 10,
      checkpointAtWalBytes: 64 * 1024,
      maxWalBytes,
    });
    for (let i = 0; i < 800; i++) insert(2_000);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(maxWalBytes);
    // 60 ticks of a busy loop without a write: three times the quiet ticks that truncate.
    const spinUntil = Date.now() + 600;
    while (Date.now() < spinUntil) {
      const turnEnd = Date.now() + 4;
      while (Date.now() < turnEnd) {
        // one turn's synchronous work, as answering a batch of calls is
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(maxWalBytes);
    // Idle: the grown file is given back.
    const quietUntil = Date.now() + 10_000;
    while (statSync(`${file}-wal`).size > maxWalBytes && Date.now() < quietUntil) await sleep(20);
    expect(statSync(`${file}-wal`).size).toBeLessThanOrEqual(maxWalBytes);
  });
});
