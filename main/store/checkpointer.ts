import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { statfsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import { walLength } from './wal-index';
import { LoopActivity } from './loop-activity';

/** A long WAL is reset once at most this much of it is left to copy (see resetIfLong). */
const RESET_UNCOPIED_BYTES = 1024 * 1024;
/** Quiet ticks (no write, the event loop idle) after which a grown WAL file is truncated. */
const QUIET_TICKS = 20;

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
  /**
   * Whether the event loop served calls since the previous tick (default: its utilisation,
   * loop-activity.ts). A busy tick is not quiet, whether or not the calls wrote anything.
   */
  loopBusy?: () => boolean;
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
  private readonly maxWalBytes: number;
  /** A copy was asked of the worker and its 'copied' has not come back yet. */
  private copyAsked = false;
  private lastLogBytes = -1;
  private quietTicks = 0;
  private stopped = false;
  private readonly loopBusy: () => boolean;

  constructor(private readonly o: CheckpointerOptions) {
    this.maxWalBytes = o.maxWalBytes ?? 64 * 1024 * 1024;
    const activity = new LoopActivity();
    this.loopBusy = o.loopBusy ?? (() => activity.busySinceLast());
    const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(
      `
      const { workerData, parentPort } = require('node:worker_threads');
      const Database = require(workerData.modulePath);
      const db = new Database(workerData.file, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {});
      db.pragma('busy_timeout = 0');
      const { closeSync, fstatSync, openSync, readSync, statSync } = require('node:fs');
      // The WAL-index header at the start of the -shm file (https://www.sqlite.org/walformat.html):
      // szPage at byte 14 (u16), mxFrame at 16 and nBackfill at 96 (u32), in native byte order.
      // How much the WAL holds that is not yet copied; unknown (copy as before) when unreadable.
      const header = Buffer.alloc(100);
      const little = require('node:os').endianness() === 'LE';
      const u16 = (at) => (little ? header.readUInt16LE(at) : header.readUInt16BE(at));
      const u32 = (at) => (little ? header.readUInt32LE(at) : header.readUInt32BE(at));
      // The -shm file is read through one descriptor kept open (see shmDescriptor in
      // wal-index.ts: closing any descriptor of it releases the WAL locks SQLite holds on it),
      // opened again only when SQLite has deleted the file and made a new one.
      let shm;
      const shmFd = () => {
        const path = workerData.file + '-shm';
        const ino = statSync(path).ino;
        if (shm && shm.ino === ino) return shm.fd;
        if (shm) closeSync(shm.fd);
        shm = undefined;
        const fd = openSync(path, 'r');
        shm = { fd, ino: fstatSync(fd).ino };
        return fd;
      };
      const uncopiedBytes = () => {
        try {
          if (readSync(shmFd(), header, 0, 100, 0) < 100) return Infinity;
          const page = u16(14);
          const frames = u32(16);
          const copied = u32(96);
          const size = page === 1 ? 65536 : page;
          return size > 0 && frames >= copied ? (frames - copied) * size : Infinity;
        } catch {
          return Infinity;
        }
      };
      const copy = () => {
        try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (e) { /* busy or full: next round */ }
      };
      // The room the WAL may take: what the disk has free plus what the WAL holds already.
      const { statfsSync } = require('node:fs');
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
        if (uncopiedBytes() >= threshold) copy();
        timer = setTimeout(tick, room < 256 * 1024 * 1024 ? Math.min(100, workerData.intervalMs) : workerData.intervalMs);
      };
      timer = setTimeout(tick, workerData.intervalMs);
      parentPort.on('message', (m) => {
        // 'copy': the writer wants to reset a long WAL; copy what is left so that its reset
        // has (nearly) nothing to copy on the main thread.
        if (m === 'copy') { copy(); return parentPort.postMessage('copied'); }
        // 'truncate': give a grown WAL file's space back, off the main thread (see
        // truncateWhenQuiet). Busy (the writer has a batch open): the next quiet tick asks again.
        if (m === 'truncate') {
          try { db.pragma('wal_checkpoint(TRUNCATE)'); } catch (e) { /* busy or full */ }
          return parentPort.postMessage('truncated');
        }
        clearTimeout(timer); db.close(); process.exit(0);
      });
      `,
      {
        eval: true,
        workerData: {
          file: o.file,
          modulePath,
          intervalMs: o.intervalMs ?? 100,
          checkpointAtWalBytes: o.checkpointAtWalBytes ?? 4 * 1024 * 1024,
          nativeBinding: o.nativeBinding,
        },
      },
    );
    this.worker.unref();
    // Right after the worker's copy is when the least is left to copy: reset then, once the
    // batch open now (if any) is committed (its commit is queued before this).
    this.worker.on('message', (m) => {
      if (m === 'truncated') {
        this.truncateAsked = false;
        return;
      }
      this.copyAsked = false;
      setImmediate(() => this.resetIfLong(false));
    });
    this.worker.on('error', (error) => console.error('gatehouse: WAL checkpointer failed:', error));
    this.timer = setInterval(() => this.resetIfLong(), o.intervalMs ?? 100);
    this.timer.unref();
  }

  /**
   * Starts a WAL grown past `maxWalBytes` over, between two batches. The reset is a checkpoint
   * on the writer's connection, holding the write lock, on the main thread: it copies whatever
   * frames the worker has not, and fsyncs. It was a TRUNCATE with up to 4 MiB and more
   * uncopied, which stalled every agent for 70-170 ms (the stalls "with nothing
   * written" of bench/transcript-archive.bench.mjs); truncating the file was most of it. Now:
   * the worker is asked to copy first, off the main thread, and the reset waits for a tick at
   * which at most RESET_UNCOPIED_BYTES are left, right after the worker's copy (a log four
   * times the limit is reset whatever is left, a bound on disk use); and it is a RESTART, which leaves the file to be overwritten
   * from its start (no journal_size_limit either: that truncation, in the next commit, cost
   * as much again). The file a burst grew is truncated once the writer has been quiet for
   * QUIET_TICKS ticks instead (see truncateWhenQuiet).
   */
  private resetIfLong(askWorker = true): void {
    if (this.stopped || !this.o.writerIdle()) return;
    const wal = walLength(this.o.file);
    if (!wal) return;
    if (askWorker) this.truncateWhenQuiet(wal.logBytes);
    // On a small or nearly full disk the limit is a sixth of the room the WAL has: past it the
    // file's space is given back at once, stall or not, before the disk fills. A sixth, not a
    // half: the WAL grows between two ticks, and copying it back grows the database too.
    const roomLimit = Math.max(256 * 1024, (freeBytes(this.o.file) + wal.logBytes) / 6);
    if (roomLimit < this.maxWalBytes) {
      // The file too, not only the live log: a WAL that started over keeps the size it grew
      // to (before the worker's first copy, on a loaded machine), and that space is what the
      // database needs to grow into when the frames are copied back.
      if (wal.logBytes > roomLimit || walFileBytes(this.o.file) > roomLimit) this.truncate();
      return;
    }
    if (wal.logBytes <= this.maxWalBytes) return;
    if (wal.logBytes <= 4 * this.maxWalBytes && wal.uncopiedBytes > RESET_UNCOPIED_BYTES) {
      if (askWorker && !this.copyAsked) {
        this.copyAsked = true;
        this.worker.postMessage('copy');
      }
      return;
    }
    this.copyAsked = false;
    try {
      this.o.db.pragma('wal_checkpoint(RESTART)');
    } catch (error) {
      console.error('gatehouse: WAL reset failed, will retry:', error);
    }
  }

  /**
   * Gives back the disk space of a WAL file that a burst grew past the limit, with a TRUNCATE
   * once QUIET_TICKS ticks in a row had no write and an idle event loop. The worker runs it:
   * truncating a large file and its fsyncs took 120-200 ms (measured under the socket bench,
   * on ext4 with `discard`), which on the main thread stalled every call; in the worker only
   * a write arriving meanwhile waits for it (the writer's lock), and a busy writer makes the
   * worker give up until the next quiet tick. "No write" alone was not quiet: calls that
   * write nothing (`classify`, `check`) kept coming, and every one in flight waited for it.
   */
  private truncateWhenQuiet(logBytes: number): void {
    // Read every tick, so each look covers one tick's time.
    const busy = this.loopBusy();
    const quiet = logBytes === this.lastLogBytes && !busy;
    this.quietTicks = quiet ? this.quietTicks + 1 : 0;
    this.lastLogBytes = logBytes;
    if (this.quietTicks < QUIET_TICKS) return;
    let fileBytes = 0;
    try {
      fileBytes = statSync(`${this.o.file}-wal`).size;
    } catch {
      return;
    }
    if (fileBytes <= this.maxWalBytes || this.truncateAsked) return;
    this.truncateAsked = true;
    this.worker.postMessage('truncate');
  }

  /** A truncation was asked of the worker and its 'truncated' has not come back yet. */
  private truncateAsked = false;

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
      if (this.stopped || !this.o.writerIdle()) return;
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
    this.stopped = true;
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

/** The size of the database's WAL file; 0 when there is none. */
function walFileBytes(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
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
