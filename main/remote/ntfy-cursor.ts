import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import type { NtfyCursor } from './ntfy-subscriber';

/**
 * Keeps the last reply-topic message id in a small file in Gatehouse's data directory, per
 * topic, so a restart resumes where the last run stopped instead of replaying or missing
 * presses. Writes are asynchronous and coalesced (a decision is never held up by the disk);
 * a lost or unreadable file only means starting from the subscriber's default.
 */
export class FileNtfyCursor implements NtfyCursor {
  private pending: string | undefined;
  private writing = false;

  constructor(
    private readonly file: string,
    private readonly topic: string,
  ) {}

  load(): string | undefined {
    try {
      const saved = JSON.parse(readFileSync(this.file, 'utf8')) as {
        topic?: unknown;
        id?: unknown;
      };
      return saved.topic === this.topic && typeof saved.id === 'string' ? saved.id : undefined;
    } catch {
      return undefined;
    }
  }

  save(id: string): void {
    this.pending = id;
    if (!this.writing) void this.flush();
  }

  private async flush(): Promise<void> {
    this.writing = true;
    try {
      while (this.pending !== undefined) {
        const id = this.pending;
        this.pending = undefined;
        const tmp = `${this.file}.tmp`;
        await writeFile(tmp, JSON.stringify({ topic: this.topic, id }), { mode: 0o600 });
        await rename(tmp, this.file);
      }
    } catch {
      // Best effort: the cursor only saves a replay of presses already handled.
    } finally {
      this.writing = false;
    }
  }
}
