import { chmodSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Writes `text` to `file` (mode 0600 by default) by renaming a new file over it, so that a
 * reader in another process sees the old content or the new, never an empty or half file.
 */
export function replaceFileSync(file: string, text: string, mode = 0o600): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, { mode });
    // The mode of a file that was already there (left by a crash) is not changed by writeFileSync.
    chmodSync(tmp, mode);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}
