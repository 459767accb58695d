import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { TAIL_ROWS } from '../../../main/store/request-key-index';
import { TestDaemon } from '../../support/daemon';
import { rawSession } from '../../support/raw-socket';

// A session's and an agent's requests are found through key tables the daemon writes in bulk,
// TAIL_ROWS requests at a time, when it is idle (main/store/request-key-index.ts). On a real
// daemon: agents file more than two bulk writes' worth of auto-approved requests over the
// socket, and every one of them shows in its session's and its agent's lists, before and after
// the idle daemon wrote the tail, and after a kill -9 and a restart (which finds the unwritten
// tail in the database, not in memory).

type Agent = Awaited<ReturnType<typeof openAgent>>;

async function openAgent(socketPath: string, agent: string) {
  const s = rawSession(socketPath);
  await s.connected;
  const hello = await s.call('hello', { agent });
  const sessionId = (hello?.result as { sessionId: string }).sessionId;
  const filed: string[] = [];
  return {
    agent,
    sessionId,
    filed,
    async file(n: number): Promise<void> {
      for (let i = 0; i < n; i++) {
        for (;;) {
          const m = await s.call('request', {
            action: 'read_file',
            description: `read ${filed.length}`,
            paths: ['src/a.ts'],
          });
          const retry = (m?.error as { data?: { retryAfterMs?: number } } | undefined)?.data
            ?.retryAfterMs;
          if (retry !== undefined) {
            await new Promise((r) => setTimeout(r, retry));
            continue;
          }
          const result = m?.result as { requestId: string; status: string };
          expect(result.status).toBe('approved');
          filed.push(result.requestId);
          break;
        }
      }
    },
    close: () => s.socket.destroy(),
  };
}

/** How many requests the daemon's database holds after the key tables' mark. */
function tailRows(home: string): number {
  const db = new Database(join(home, 'gatehouse.db'), { readonly: true });
  try {
    return db
      .prepare(
        'SELECT COUNT(*) FROM requests WHERE request_key > (SELECT through FROM request_keys_mark)',
      )
      .pluck()
      .get() as number;
  } finally {
    db.close();
  }
}

/** Every request of a `requests.query`, paged through; and the total it said. */
async function queryAll(admin: AdminClient, filter: { sessionId?: string; agent?: string }) {
  const ids: string[] = [];
  let total: number | undefined;
  let cursor: string | undefined;
  do {
    const page = await admin.call('requests.query', {
      ...filter,
      limit: 333,
      ...(cursor ? { cursor } : {}),
    });
    total ??= page.total;
    ids.push(...page.requests.map((r) => r.requestId));
    cursor = page.nextCursor;
  } while (cursor);
  return { ids: ids.reverse(), total };
}

describe('request key tables on a real daemon', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let agents: Agent[];
  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
  }, 60_000);
  afterAll(async () => {
    admin.close();
    await d.stop();
  });

  async function expectEveryRequestListed(): Promise<void> {
    for (const a of agents) {
      expect(await queryAll(admin, { sessionId: a.sessionId })).toEqual({
        ids: a.filed,
        total: a.filed.length,
      });
      const detail = await admin.call('session.get', { sessionId: a.sessionId });
      expect(detail.requestsTotal).toBe(a.filed.length);
      expect(detail.requests.at(-1)?.requestId).toBe(a.filed.at(-1));
    }
    for (const name of ['alpha', 'beta']) {
      const mine = agents.filter((a) => a.agent === name).flatMap((a) => a.filed);
      const listed = await queryAll(admin, { agent: name });
      expect(listed.total).toBe(mine.length);
      expect([...listed.ids].sort()).toEqual([...mine].sort());
    }
  }

  it('lists every request filed, across bulk writes and a kill -9', async () => {
    agents = [
      await openAgent(d.socketPath, 'alpha'),
      await openAgent(d.socketPath, 'alpha'),
      await openAgent(d.socketPath, 'beta'),
    ];
    // Interleaved, as concurrent agents file: past two bulk writes, with a tail left over.
    const each = Math.ceil((TAIL_ROWS * 2 + 100) / agents.length);
    await Promise.all(agents.map((a) => a.file(each)));
    await expectEveryRequestListed();
    // Idle now: the daemon writes the tail's chunks (a few ticks), leaving less than one.
    const filed = agents.reduce((n, a) => n + a.filed.length, 0);
    expect(tailRows(d.home)).toBeGreaterThan(TAIL_ROWS);
    await expect.poll(() => tailRows(d.home), { timeout: 10_000 }).toBe(filed % TAIL_ROWS);
    await expectEveryRequestListed();

    agents.forEach((a) => a.close());
    await d.kill9();
    await d.launch(['--no-dashboard']);
    admin.close();
    admin = await d.admin();
    await expectEveryRequestListed();

    // New sessions after the restart: the tail counted from the database reaches the next
    // bulk write.
    agents = [
      ...agents,
      await openAgent(d.socketPath, 'alpha'),
      await openAgent(d.socketPath, 'beta'),
    ];
    await Promise.all(agents.slice(3).map((a) => a.file(TAIL_ROWS / 2 + 10)));
    await expectEveryRequestListed();
    agents.forEach((a) => a.close());
  }, 120_000);
});
