import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TranscriptArchive } from '../engine/ports';

/**
 * Writes each closed session as `<sessionId>.json`, atomically (write then rename), so a
 * crash never leaves half a transcript.
 */
export function transcriptFiles(dir: string): TranscriptArchive {
  return {
    write(doc) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, `${doc.session.sessionId}.json`);
      const tmp = `${file}.tmp-${process.pid}`;
      writeFileSync(tmp, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600 });
      renameSync(tmp, file);
    },
  };
}
