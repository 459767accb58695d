import Database from 'better-sqlite3';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { TestDaemon } from '../../support/daemon';

// Another process may open the daemon's database while it runs: the sqlite3 shell, a backup
// tool, these tests. SQLite keeps such readers and the daemon apart with POSIX locks on the
// -shm file, and a process loses all of its locks on a file when it closes any descriptor of it.
// The WAL checkpointer read the -shm header with an open-read-close every 100 ms, so the
// daemon kept dropping its locks; a reader opening the database then took itself for the only
// user, reset the -shm file, and the daemon, which maps that file, died of SIGBUS (within two
// seconds, in every run before the fix: main/store/wal-index.ts).

let d: TestDaemon | undefined;
afterEach(async () => {
  await d?.stop();
  d = undefined;
});

/** Opens the database as another program would, reads a row count, and closes it. */
function readFromOutside(home: string): number {
  const db = new Database(join(home, 'gatehouse.db'), { readonly: true });
  try {
    return db.prepare('SELECT COUNT(*) FROM requests').pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('a reader in another process', () => {
  it('leaves the daemon running and answering, while agents file and after', async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    const agent = await d.agent({ agent: 'writer' });
    let filed = 0;
    const filingUntil = Date.now() + 1_500;
    const filing = (async () => {
      while (Date.now() < filingUntil) {
        const r = await agent.request({ action: 'read_file', description: 'r', paths: ['a.ts'] });
        expect(r.status).toBe('approved');
        filed++;
      }
    })();
    // Reads while the agent files, then for three seconds with the daemon idle (its
    // checkpointer still reading the -shm header every tick).
    const readingUntil = filingUntil + 3_000;
    let seen = 0;
    while (Date.now() < readingUntil) {
      seen = readFromOutside(d.home);
      await sleep(20);
    }
    await filing;
    expect(filed).toBeGreaterThan(0);
    expect(seen).toBe(filed);
    // Still there: the agent's next call is answered, and so is the admin's.
    const r = await agent.request({ action: 'read_file', description: 'r', paths: ['a.ts'] });
    expect(r.status).toBe('approved');
    const admin = await d.admin();
    try {
      const status = await admin.call('status', {});
      expect(status.pending).toBe(0);
    } finally {
      admin.close();
    }
    agent.close();
  }, 30_000);
});
