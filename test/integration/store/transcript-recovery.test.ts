import Database from 'better-sqlite3';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../main/store/database';
import { TestDaemon } from '../../support/daemon';
import { seedLongSession } from '../../support/seed-session';

// A session's transcript file owed across kill -9: the daemon is killed right
// after a long session's end is committed, while its file is still being written; the next
// start writes it, in the background.

const REQUESTS = 20_000;

/** Resolves once `ok()` holds, checking each time the event loop is idle; fails after `ms`. */
async function until(ok: () => boolean, what: string, ms = 60_000): Promise<void> {
  const giveUp = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > giveUp) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('a transcript file cut short by kill -9 (real daemon)', () => {
  let d: TestDaemon | undefined;
  afterEach(async () => {
    await d?.stop();
  });

  it('is written after the restart, whole', async () => {
    let sessionId = '';
    d = await TestDaemon.start({}, ['--no-dashboard'], (home) => {
      const db = openDatabase({ file: join(home, 'gatehouse.db') });
      ({ sessionId } = seedLongSession(db, {
        startedAt: Date.now() - 3_600_000,
        requests: REQUESTS,
        logs: REQUESTS,
      }));
      // Resumable by its key, so an agent can end it over the socket.
      db.prepare("UPDATE sessions SET session_key = 'day-long' WHERE session_id = ?").run(
        sessionId,
      );
      db.close();
    });
    const daemon = d;
    const dir = join(daemon.home, 'transcripts');
    const file = join(dir, `${sessionId}.json`);

    const agent = await daemon.agent({ agent: 'long-runner', sessionKey: 'day-long' });
    expect(agent.sessionId).toBe(sessionId);
    // Answered once the end is committed; the file is written after, a page per turn.
    await agent.end('completed');
    await daemon.kill9();
    agent.close();
    expect(existsSync(file)).toBe(false);

    await daemon.launch(['--no-dashboard']);
    await until(() => existsSync(file), 'the transcript file');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as {
      session: { sessionId: string; status: string };
      requests: unknown[];
      transcript: { text: string }[];
    };
    expect(doc.session).toMatchObject({ sessionId, status: 'completed' });
    expect(doc.requests).toHaveLength(REQUESTS);
    // Every request and log, then the end (a hello to the active session is not a resume).
    expect(doc.transcript).toHaveLength(2 * REQUESTS + 1);
    expect(doc.transcript.at(-1)?.text).toBe('Session ended: completed');
    expect(readdirSync(dir)).toEqual([`${sessionId}.json`]);
    // The debt is cleared once the file is in place (a moment after the rename).
    const db = new Database(join(daemon.home, 'gatehouse.db'), { readonly: true });
    try {
      const owed = () =>
        db.prepare('SELECT COUNT(*) FROM transcript_files_owed').pluck().get() as number;
      await until(() => owed() === 0, 'the debt to be cleared');
    } finally {
      db.close();
    }
  }, 120_000);
});
