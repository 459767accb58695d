import type Database from 'better-sqlite3';
import { statSync } from 'node:fs';
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
      const timer = setInterval(() => {
        try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (e) { /* busy: next round */ }
      }, workerData.intervalMs);
      parentPort.on('message', () => { clearInterval(timer); db.close(); process.exit(0); });
      `,
      {
        eval: true,
        workerData: {
          file: o.file,
          modulePath,
          intervalMs: o.intervalMs ?? 500,
          nativeBinding: o.nativeBinding,
        },
      },
    );
    this.worker.unref();
    this.worker.on('error', (error) => console.error('gatehouse: WAL checkpointer failed:', error));
    this.timer = setInterval(() => this.resetIfLong(), o.intervalMs ?? 500);
    this.timer.unref();
  }

  private resetIfLong(): void {
    if (!this.o.writerIdle()) return;
    let size = 0;
    try {
      size = statSync(`${this.o.file}-wal`).size;
    } catch {
      return;
    }
    if (size <= (this.o.maxWalBytes ?? 64 * 1024 * 1024)) return;
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
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    await this.worker.terminate();
  }
}
