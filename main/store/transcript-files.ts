import { mkdir, open, opendir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArchivedSession, TranscriptArchive } from '../engine/kernel/ports';
import { archiveChunks } from './transcript-json';

/** Where a session's file is written before it is renamed into place. */
const TEMP_SUFFIX = '.tmp';

/** Lets agents' calls and the engine's batch commit run between two pages. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Turns of the event loop handed out one at a time: each caller resolves a turn after the
 * previous one. Files written side by side (eight owed ones after a crash, sessions ending at
 * once) each made a page when their own turn came, so every turn made a page of each of them
 * in one go (a stall of eight pages); through this, one page is made per turn, whatever the
 * number of files under way, and agents' calls run between any two.
 */
function turnTaker(): () => Promise<void> {
  let last = Promise.resolve();
  return () => (last = last.then(nextTurn));
}

export interface TranscriptFilesOptions {
  /**
   * Whether no write batch is open: pages are read only then, so that the file never holds
   * what a batch that is later rolled back wrote (the retention service waits the same way).
   */
  writerIdle?: () => boolean;
  /**
   * Called once a session's file is in place, while no write batch is open: it is no longer
   * owed (store.transcriptFileWritten). Not called for a write that was stopped.
   */
  onWritten?: (sessionId: string) => void;
}

/** The transcript files, with what the daemon's other parts need besides writing them. */
export interface TranscriptFiles extends TranscriptArchive {
  /**
   * Removes a session's file (retention). A write of it under way is stopped and its
   * temp file removed; the removal waits for it, so the write can never put the file back.
   * Resolves to whether a file was there.
   */
  remove(sessionId: string): Promise<boolean>;
  /** Resolves once every write begun so far is done (shutdown finishes them). */
  idle(): Promise<void>;
  /**
   * Stops every write under way at its next page, and every one queued, leaving no file (as
   * a crash would; tests that throw away the folder or restart).
   */
  abandon(): void;
  /** Whether a write or removal of the session is queued or under way. */
  queued(sessionId: string): boolean;
}

/**
 * Writes each closed session as `<sessionId>.json`: the pages of the session are
 * written one per turn of the event loop to `<sessionId>.json.tmp`, so a session of any
 * length never blocks agents' calls nor holds more than a page; then the temp file is
 * renamed into place, so a crash never leaves half a transcript under the final name. A
 * temp file left by a crash is replaced by the next write of its session, and every stale
 * one is removed before this process's first write.
 *
 * The writes of one session run one after the other (never two into one file); those of
 * different sessions run side by side.
 */
export function transcriptFiles(dir: string, o: TranscriptFilesOptions = {}): TranscriptFiles {
  /** The last write or removal of each session, which the next one waits for. */
  const queues = new Map<string, Promise<unknown>>();
  /** Writes under way, by session: set `stopped` to end one at its next page. */
  const active = new Map<string, { stopped: boolean }>();
  let prepared: Promise<void> | undefined;
  /** Set by abandon(): writes queued but not begun yet stop at once too. */
  let abandoned = false;
  const takeTurn = turnTaker();
  const fileOf = (sessionId: string) => join(dir, `${sessionId}.json`);

  const prepare = () =>
    (prepared ??= (async () => {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await removeStaleTemps(dir);
    })());

  /** Runs `job` after everything queued for the session, and keeps the queue short. */
  function enqueue<T>(sessionId: string, job: () => Promise<T>): Promise<T> {
    const before = queues.get(sessionId) ?? Promise.resolve();
    const run = before.then(job, job);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    queues.set(sessionId, settled);
    void settled.then(() => {
      if (queues.get(sessionId) === settled) queues.delete(sessionId);
    });
    return run;
  }

  async function writeFile(doc: ArchivedSession, state: { stopped: boolean }): Promise<void> {
    await prepare();
    const file = fileOf(doc.session.sessionId);
    const tmp = `${file}${TEMP_SUFFIX}`;
    // A temp file a crash left behind goes first; then the file is created afresh, never
    // opened through a link someone put at its name (O_EXCL does not follow one).
    await unlink(tmp).catch(() => undefined);
    const out = await open(tmp, 'wx', 0o600);
    let complete = false;
    try {
      const chunks = archiveChunks(doc);
      for (;;) {
        // Each page (made as its chunk is asked for) in a turn of its own.
        await takeTurn();
        if (state.stopped) return;
        if (o.writerIdle && !o.writerIdle()) continue;
        const chunk = chunks.next();
        if (chunk.done) break;
        await out.write(chunk.value);
      }
      await out.sync();
      complete = true;
    } finally {
      await out.close();
      if (!complete) await unlink(tmp).catch(() => undefined);
    }
    await rename(tmp, file);
    // Recorded outside the engine's batch, so a batch rolled back cannot take it with it;
    // lost to a crash, the file is only written once more at the next start.
    while (o.writerIdle && !o.writerIdle()) await nextTurn();
    if (!state.stopped) o.onWritten?.(doc.session.sessionId);
  }

  return {
    write(doc) {
      const { sessionId } = doc.session;
      return enqueue(sessionId, async () => {
        const state = { stopped: abandoned };
        active.set(sessionId, state);
        try {
          await writeFile(doc, state);
        } catch (error) {
          if (!state.stopped)
            console.error(`gatehouse: could not write the transcript of ${sessionId}:`, error);
        } finally {
          if (active.get(sessionId) === state) active.delete(sessionId);
        }
      });
    },

    remove(sessionId) {
      const writing = active.get(sessionId);
      if (writing) writing.stopped = true;
      return enqueue(sessionId, () =>
        unlink(fileOf(sessionId)).then(
          () => true,
          (error: NodeJS.ErrnoException) => {
            if (error.code === 'ENOENT') return false;
            throw error;
          },
        ),
      );
    },

    async idle() {
      while (queues.size) await Promise.all(queues.values());
    },

    abandon() {
      abandoned = true;
      for (const state of active.values()) state.stopped = true;
    },

    queued: (sessionId) => queues.has(sessionId),
  };
}

/** Removes temp files a crash left (no write of this process has begun yet). */
async function removeStaleTemps(dir: string): Promise<void> {
  for await (const entry of await opendir(dir)) {
    // `.tmp-<pid>` is what writers before paging left.
    if (/\.json\.tmp(-\d+)?$/.test(entry.name))
      await unlink(join(dir, entry.name)).catch(() => undefined);
  }
}
