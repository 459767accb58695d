import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../main/store/database';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { TestDaemon } from '../../support/daemon';
import { errorCode, rawSession } from '../../support/raw-socket';
import { seedLongSession, type SeededSession } from '../../support/seed-session';

// A session that ran all day, on a real daemon: the admin API and `gatehouse summary` read
// it in bounded pages, and an agent can read none of it.

const REQUESTS = 3000;
const LOGS = 3000;

describe('a long session over the socket and the CLI (real daemon)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let seeded!: SeededSession;
  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard'], (home) => {
      const db = openDatabase({ file: join(home, 'gatehouse.db') });
      seeded = seedLongSession(db, {
        startedAt: Date.now() - 3_600_000,
        requests: REQUESTS,
        logs: LOGS,
      });
      db.close();
    });
    admin = await d.admin();
  }, 60_000);
  afterAll(async () => {
    admin.close();
    await d.stop();
  });

  it('session.get answers a bounded detail with totals; session.transcript pages the rest', async () => {
    const detail = await admin.call('session.get', { sessionId: seeded.sessionId });
    expect(detail.requests).toHaveLength(100);
    expect(detail.transcript).toHaveLength(200);
    expect(detail).toMatchObject({ requestsTotal: REQUESTS, transcriptTotal: REQUESTS + LOGS });
    expect(detail.requests.at(-1)!.requestId).toBe(seeded.requestIds.at(-1));

    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await admin.call('session.transcript', {
        sessionId: seeded.sessionId,
        limit: 1000,
        ...(cursor ? { cursor } : {}),
      });
      expect(page.total).toBe(REQUESTS + LOGS);
      for (const e of page.transcript) seen.add(JSON.stringify(e));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.size).toBe(REQUESTS + LOGS);
    // Beyond the cap is refused, not read.
    await expect(
      admin.call('session.transcript', { sessionId: seeded.sessionId, limit: 5001 }),
    ).rejects.toThrow();
  });

  it("an agent connection cannot read a session's detail or transcript", async () => {
    const s = rawSession(d.socketPath);
    await s.connected;
    expect((await s.call('hello', { agent: 'curious' }))?.result).toBeDefined();
    for (const method of ['session.transcript', 'session.get', 'requests.query'])
      expect(errorCode(await s.call(method, { sessionId: seeded.sessionId })), method).toBe(-32601);
    s.socket.destroy();
  });

  it('gatehouse summary counts from the database; --json is bounded, --json --all is whole', async () => {
    const line = await d.cli(['summary', seeded.sessionId]);
    expect(line.code).toBe(0);
    expect(line.stdout).toContain(
      `is still active; ${REQUESTS + LOGS} transcript entries, ${REQUESTS} requests so far.`,
    );
    const bounded = JSON.parse((await d.cli(['summary', seeded.sessionId, '--json'])).stdout) as {
      transcript: unknown[];
      requests: unknown[];
      requestsTotal: number;
    };
    expect(bounded.transcript).toHaveLength(200);
    expect(bounded.requests).toHaveLength(100);
    expect(bounded.requestsTotal).toBe(REQUESTS);
    const whole = JSON.parse(
      (await d.cli(['summary', seeded.sessionId, '--json', '--all'])).stdout,
    ) as {
      transcript: { at: string }[];
      requests: { requestId: string }[];
      transcriptTotal: number;
    };
    expect(whole.requests.map((r) => r.requestId)).toEqual(seeded.requestIds);
    expect(whole.transcript).toHaveLength(REQUESTS + LOGS);
    expect(whole.transcriptTotal).toBe(REQUESTS + LOGS);
    const times = whole.transcript.map((e) => e.at);
    expect(times).toEqual([...times].sort());
  }, 60_000);
});
