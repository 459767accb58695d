import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Checkpoints the WAL from a worker thread. The main connection has automatic checkpoints
 * turned off because a checkpoint fsyncs, and doing that inside a commit on the main thread
 * stalled every agent waiting on the socket for milliseconds. A PASSIVE checkpoint on its
 * own connection never blocks the writer.
 */
export class WalCheckpointer {
  private readonly worker: Worker;

  constructor(file: string, options: { intervalMs?: number; nativeBinding?: string } = {}) {
    const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(
      `
      const { workerData, parentPort } = require('node:worker_threads');
      const Database = require(workerData.modulePath);
      const db = new Database(workerData.file, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {});
      db.pragma('busy_timeout = 1000');
      const { statSync } = require('node:fs');
      const walSize = () => { try { return statSync(workerData.file + '-wal').size; } catch { return 0; } };
      const timer = setInterval(() => {
        try {
          // Under sustained writes a passive checkpoint never lets the WAL restart; past the
          // limit, TRUNCATE waits for a gap between the writer's batches and resets it.
          db.pragma(walSize() > workerData.maxWalBytes ? 'wal_checkpoint(TRUNCATE)' : 'wal_checkpoint(PASSIVE)');
        } catch (e) { /* busy: next round */ }
      }, workerData.intervalMs);
      parentPort.on('message', () => { clearInterval(timer); db.close(); process.exit(0); });
      `,
      {
        eval: true,
        workerData: {
          file,
          modulePath,
          intervalMs: options.intervalMs ?? 1000,
          maxWalBytes: 64 * 1024 * 1024,
          nativeBinding: options.nativeBinding,
        },
      },
    );
    this.worker.unref();
    this.worker.on('error', (error) => console.error('gatehouse: WAL checkpointer failed:', error));
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage('stop');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    await this.worker.terminate();
  }
}
