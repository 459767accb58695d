import type { SessionSummary } from '../../shared/domain';
import { toSessionRecord } from '../engine/kernel/records';
import type { SessionsStore } from '../engine/sessions/sessions-store';
import { archivedSession } from '../engine/sessions/transcript';
import type { TranscriptFiles } from './transcript-files';

/**
 * Owed files written side by side: their pages take turns of the event loop, one page a turn
 * for all of them (transcript-files.ts), so more at a time overlaps the file writes only.
 */
const OWED_AT_A_TIME = 8;

/** Lets agents' calls and the engine's batch commit run first. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface OwedTranscriptsOptions {
  store: SessionsStore;
  files: Pick<TranscriptFiles, 'write' | 'queued'>;
  /** Checked before each group: shutdown stops the walk (the writes under way finish). */
  stopped: () => boolean;
  pageSize?: number;
}

/**
 * Writes the transcript files a crash kept from being written: every session
 * whose end committed but whose file was never renamed into place (migration 012). Run in
 * the background once the daemon is ready: a group of owed files at a time, read on the
 * owed table's primary key, the next group only once the last is written, so thousands of
 * them neither delay start nor crowd out agents' calls. Each file is the one the end would
 * have written, read from the database as it is now. Resolves to how many were written.
 */
export async function writeOwedTranscripts(o: OwedTranscriptsOptions): Promise<number> {
  const pageSize = o.pageSize ?? OWED_AT_A_TIME;
  let after = '';
  let written = 0;
  for (;;) {
    await nextTurn();
    if (o.stopped()) return written;
    const owed = o.store.owedTranscriptFiles(after, pageSize);
    if (!owed.length) return written;
    after = owed[owed.length - 1]!.sessionId;
    const writes: Promise<void>[] = [];
    for (const { sessionId, connections } of owed) {
      // Ended in this process: its own write is queued (and clears the debt).
      if (o.files.queued(sessionId)) continue;
      const row = o.store.getSession(sessionId);
      // Resumed since (its next end writes the file again), or never summarised.
      if (!row || row.status === 'active' || !row.summaryJson) continue;
      // Written by this process's end of the session, so it parses as a summary.
      const summary = JSON.parse(row.summaryJson) as SessionSummary;
      writes.push(
        o.files.write(archivedSession(o.store, toSessionRecord(row, connections), summary)),
      );
    }
    await Promise.all(writes);
    written += writes.length;
  }
}
