import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { NtfyCursor } from './ntfy-subscriber';

/**
 * Keeps the last reply-topic message id in a small file in Gatehouse's data directory, per
 * topic, so a restart resumes where the last run stopped instead of replaying or missing
 * presses. A lost or unreadable file only means starting from the subscriber's default.
 */
export class FileNtfyCursor implements NtfyCursor {
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
    try {
      const tmp = `${this.file}.tmp`;
      writeFileSync(tmp, JSON.stringify({ topic: this.topic, id }), { mode: 0o600 });
      renameSync(tmp, this.file);
    } catch {
      // Best effort: the cursor only saves a replay of presses already handled.
    }
  }
}
