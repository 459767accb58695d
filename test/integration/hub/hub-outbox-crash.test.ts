import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { TestDaemon, waitForPending } from '../../support/daemon';
import { freePort } from '../../support/free-port';
import { joinHub, TestHub, waitForLink } from '../../support/hub';
import { TestPostgres } from '../../support/postgres';

interface HubRequestView {
  requestId: string;
  status: string;
}

/**
 * A machine's daemon killed with `kill -9` while the hub is away: what it had to publish is
 * in its SQLite outbox and reaches the hub after both are back; and what a crash kept out of
 * the outbox (the engine had committed, the outbox row was not written) is found at the next
 * start and published too. The hub ends up agreeing with the machine on every request.
 */
describe('the outbox across a daemon crash (real daemon, real PostgreSQL hub)', () => {
  let pgServer: TestPostgres;
  let hub: TestHub;
  let daemon: TestDaemon;
  let ann: string;

  beforeAll(async () => {
    pgServer = await TestPostgres.start();
    hub = await TestHub.start({
      databaseUrl: pgServer.createDatabase('crash'),
      port: await freePort(),
    });
    daemon = await TestDaemon.start({}, ['--no-dashboard']);
    ann = await hub.person('ann');
    await joinHub(daemon, hub, 'laptop');
  }, 120_000);
  afterAll(async () => {
    await daemon?.stop();
    await hub?.stop();
    pgServer?.stop();
  });

  it('loses nothing and applies nothing twice', async () => {
    await hub.signal('SIGKILL');
    await waitForLink(daemon, false);
    let admin: AdminClient = await daemon.admin();
    const agent = await daemon.agent({ agent: 'builder', project: '/work/p' });
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4]) {
      void agent.request({ action: 'git_push', description: `crash push ${n}`, wait: false });
      ids.push((await waitForPending(admin, (r) => r.description === `crash push ${n}`)).requestId);
    }
    expect((await daemon.cli(['approve', ids[0]!])).code).toBe(0);
    expect((await daemon.cli(['deny', ids[1]!])).code).toBe(0);
    agent.close();
    admin.close();
    await daemon.kill9();
    // What a crash right after the engine's commit leaves: request 4 and request 2's denial
    // never reached the outbox.
    const db = new Database(join(daemon.home, 'gatehouse.db'));
    db.prepare('DELETE FROM hub_outbox WHERE request_id = ? OR (request_id = ? AND kind = ?)').run(
      ids[3],
      ids[1],
      'request.decided',
    );
    db.prepare('DELETE FROM hub_published WHERE request_id = ?').run(ids[3]);
    db.prepare("UPDATE hub_published SET status = 'pending' WHERE request_id = ?").run(ids[1]);
    db.close();

    await daemon.launch(['--no-dashboard']);
    await hub.launch();
    await waitForLink(daemon, true, 40_000);
    admin = await daemon.admin();
    const local = async () =>
      Object.fromEntries(
        await Promise.all(
          ids.map(
            async (id) =>
              [id, (await admin.call('request.get', { requestId: id })).request.status] as const,
          ),
        ),
      );
    const onHub = async () => {
      const r = await hub.api('GET', '/api/requests', { token: ann });
      return Object.fromEntries(
        (r.body.requests as HubRequestView[]).map((x) => [x.requestId, x.status]),
      );
    };
    const expected = await local();
    expect(expected).toEqual({
      [ids[0]!]: 'approved',
      [ids[1]!]: 'denied',
      [ids[2]!]: 'pending',
      [ids[3]!]: 'pending',
    });
    await expect.poll(onHub, { timeout: 15_000 }).toEqual(expected);
    // Each request's ask and outcome was stored once on the hub, whatever was replayed.
    const r = await hub.api('POST', '/api/decide', {
      token: ann,
      body: { machine: 'laptop', requestId: ids[3], decision: 'approve' },
    });
    expect(r.status).toBe(200);
    await expect.poll(async () => (await local())[ids[3]!]).toBe('approved');
    await expect.poll(async () => (await onHub())[ids[3]!]).toBe('approved');
    const approvals = await admin.call('audit.query', {
      type: 'request.approved',
      requestId: ids[3],
    });
    expect(approvals.events).toHaveLength(1);
    admin.close();
  }, 120_000);
});
