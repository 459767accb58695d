import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FOLD_WRITE_MS } from '../../../main/engine/requests/classify-folding';
import { TestDaemon } from '../../support/daemon';

// Repeated identical `classify` calls of a session are counted in memory and written into
// their audit entry at most FOLD_WRITE_MS later (classify-folding.ts), so a repeat costs no
// write. On a real daemon: every call an agent made is in the trail when it is read at once,
// after a stop, and after a kill -9 that comes later than the write delay; the agent cannot
// make calls that leave no trace by outrunning the writer.

const call = { action: 'read_file', paths: ['src/a.ts'] };

/** Calls counted in the stored `action.classified` entries of `sessionId`, read from the file. */
function storedCalls(home: string, sessionId: string): number {
  const db = new Database(join(home, 'gatehouse.db'), { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT data_json FROM audit WHERE type = 'action.classified' AND session_id = ? ORDER BY seq`,
      )
      .pluck()
      .all(sessionId) as string[];
    return rows.reduce((n, j) => n + ((JSON.parse(j) as { count?: number }).count ?? 1), 0);
  } finally {
    db.close();
  }
}

let d: TestDaemon | undefined;
afterEach(async () => {
  await d?.stop();
  d = undefined;
});

async function classifyMany(n: number): Promise<string> {
  const agent = await d!.agent({ agent: 'counted' });
  for (let i = 0; i < n; i++) {
    const r = await agent.classify(call);
    expect(r.tier).toBe('auto');
  }
  const sessionId = agent.sessionId!;
  agent.close();
  return sessionId;
}

describe('classification counts held in memory', () => {
  it('are all in the trail when it is read at once (audit.query)', async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    const sessionId = await classifyMany(40);
    const admin = await d.admin();
    try {
      const page = await admin.call('audit.query', { type: 'action.classified', limit: 10 });
      const mine = page.events.filter((e) => e.sessionId === sessionId);
      expect(
        mine.reduce((n, e) => n + (typeof e.data.count === 'number' ? e.data.count : 1), 0),
      ).toBe(40);
    } finally {
      admin.close();
    }
  });

  it('are written when the daemon stops', async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    const sessionId = await classifyMany(30);
    expect(await d.signal('SIGTERM')).toBe(0);
    expect(storedCalls(d.home, sessionId)).toBe(30);
  });

  it('survive a kill -9 that comes after the write delay', async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    const sessionId = await classifyMany(25);
    await new Promise((r) => setTimeout(r, FOLD_WRITE_MS * 4));
    await d.kill9();
    expect(storedCalls(d.home, sessionId)).toBe(25);
  });
});
