import type Database from 'better-sqlite3';
import { statfsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface CheckpointerOptions {
  /** The writer's connection: the WAL is reset from it, between batches. */
  db: Database.Database;
  file: string;
  /** True when the writer has no transaction open (a reset must not split a batch). */
  writerIdle: () => boolean;
  nativeBinding?: string;
  intervalMs?: number;
  /** The worker copies frames once the WAL holds this much (see the class comment). */
  checkpointAtWalBytes?: number;
  maxWalBytes?: number;
}

/**
 * Keeps the WAL short without stalling the event loop. The main connection has automatic
 * checkpoints off, because a checkpoint fsyncs and, inside a commit, stalled every waiting
 * agent. Instead a worker thread copies WAL frames into the database with PASSIVE
 * checkpoints, which never take the writer's lock; and when the WAL has grown past
 * `maxWalBytes` anyway (sustained writes never leave a moment at which it could restart),
 * the writer itself resets it between two batches, which is quick because the worker has
 * already copied nearly everything.
 *
 * The worker copies only once the WAL holds `checkpointAtWalBytes` (4 MiB) not yet copied (it
 * reads that from the WAL-index header in the -shm file, a documented format). Once every frame
 * is copied, SQLite starts the WAL over at the next commit, and writes and fsyncs a new WAL
 * header inside that commit, on the main thread. Copying on every tick made that the fate of
 * nearly every agent call that came more than a tick after the last one (an agent's calls are
 * seconds apart): an fsync before each answer (0.3-0.5 ms here, milliseconds on many disks).
 * Now it happens once per 4 MiB written.
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(private readonly o: CheckpointerOptions) {
    const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(
      `
      const { workerData, parentPort } = require('node:worker_threads');
      const Database = require(workerData.modulePath);
      const db = new Database(workerData.file, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {});
      db.pragma('busy_timeout = 0');
      const { closeSync, openSync, readSync } = require('node:fs');
      // The WAL-index header at the start of the -shm file (https://www.sqlite.org/walformat.html):
      // szPage at byte 14 (u16), mxFrame at 16 and nBackfill at 96 (u32), in native byte order.
      // How much the WAL holds that is not yet copied; unknown (copy as before) when unreadable.
      const header = Buffer.alloc(100);
      const little = require('node:os').endianness() === 'LE';
      const u16 = (at) => (little ? header.readUInt16LE(at) : header.readUInt16BE(at));
      const u32 = (at) => (little ? header.readUInt32LE(at) : header.readUInt32BE(at));
      const uncopiedBytes = () => {
        let fd;
        try {
          fd = openSync(workerData.file + '-shm', 'r');
          if (readSync(fd, header, 0, 100, 0) < 100) return Infinity;
          const page = u16(14);
          const frames = u32(16);
          const copied = u32(96);
          const size = page === 1 ? 65536 : page;
          return size > 0 && frames >= copied ? (frames - copied) * size : Infinity;
        } catch {
          return Infinity;
        } finally {
          if (fd !== undefined) closeSync(fd);
        }
      };
      // The room the WAL may take: what the disk has free plus what the WAL holds already.
      const { statfsSync, statSync } = require('node:fs');
      const dir = require('node:path').dirname(workerData.file);
      const roomBytes = () => {
        try {
          const fs = statfsSync(dir);
          let wal = 0;
          try { wal = statSync(workerData.file + '-wal').size; } catch { /* no WAL yet */ }
          return Number(fs.bavail) * Number(fs.bsize) + wal;
        } catch {
          return Infinity;
        }
      };
      // Copy once the uncopied part reaches 4 MiB, or an eighth of the room, whichever is
      // less: on a small or nearly full disk the WAL never outgrows what the disk holds, and
      // copying it back into the database always has room. With little room, look often.
      let timer;
      const tick = () => {
        const room = roomBytes();
        const threshold = Math.min(workerData.checkpointAtWalBytes, Math.max(32 * 1024, room / 8));
        if (uncopiedBytes() >= threshold) {
          try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (e) { /* busy or full: next round */ }
        }
        timer = setTimeout(tick, room < 256 * 1024 * 1024 ? Math.min(100, workerData.intervalMs) : workerData.intervalMs);
      };
      timer = setTimeout(tick, workerData.intervalMs);
      parentPort.on('message', () => { clearTimeout(timer); db.close(); process.exit(0); });
      `,
      {
        eval: true,
        workerData: {
          file: o.file,
          modulePath,
          intervalMs: o.intervalMs ?? 500,
          checkpointAtWalBytes: o.checkpointAtWalBytes ?? 4 * 1024 * 1024,
          nativeBinding: o.nativeBinding,
        },
      },
    );
    this.worker.unref();
    this.worker.on('error', (error) => console.error('gatehouse: WAL checkpointer failed:', error));
    this.timer = setInterval(() => this.resetIfLong(), o.intervalMs ?? 500);
    this.timer.unref();
  }

  /**
   * Resets the WAL (TRUNCATE, which gives its file's space back) when it has grown past
   * `maxWalBytes` (64 MiB) or half the room the disk leaves it, whichever is less.
   */
  private resetIfLong(): void {
    if (!this.o.writerIdle()) return;
    let size = 0;
    try {
      size = statSync(`${this.o.file}-wal`).size;
    } catch {
      return;
    }
    const max = Math.min(
      this.o.maxWalBytes ?? 64 * 1024 * 1024,
      Math.max(256 * 1024, (freeBytes(this.o.file) + size) / 2),
    );
    if (size <= max) return;
    this.truncate();
  }

  /**
   * A write failed for want of space: copy what the WAL holds back into the database and give
   * the WAL's space back now (between batches), rather than at the next tick. At most every
   * quarter second, however many writes fail.
   */
  relieve(): void {
    const now = Date.now();
    if (this.relieving || now - this.lastRelief < 250) return;
    this.relieving = true;
    setImmediate(() => {
      this.relieving = false;
      if (!this.o.writerIdle()) return;
      this.lastRelief = Date.now();
      this.truncate();
    });
  }

  private relieving = false;
  private lastRelief = -Infinity;

  private truncate(): void {
    try {
      this.o.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch (error) {
      console.error('gatehouse: WAL reset failed, will retry:', error);
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage('stop');
    // The worker answers at once unless a checkpoint is under way; the fallback timer is
    // cleared, since a pending timer kept the stopped daemon's process alive for 2 s.
    let fallback: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([exited, new Promise((r) => (fallback = setTimeout(r, 2000)))]);
    clearTimeout(fallback);
    await this.worker.terminate();
  }
}

/** Bytes free for this user on the disk holding `file`; unbounded when it cannot be told. */
function freeBytes(file: string): number {
  try {
    const fs = statfsSync(dirname(file));
    return Number(fs.bavail) * Number(fs.bsize);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
