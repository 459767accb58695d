import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { GatehouseClient } from '../../../clients/sdk/client';
import { queryAudit } from '../../../main/hub/store/audit-repo';
import { openHubDatabase } from '../../../main/hub/store/open-database';
import type { SqlDatabase } from '../../../main/hub/store/sql';
import { TestDaemon, waitForPending } from '../../support/daemon';
import { joinHub, joinOwned, TestHub, waitForLink } from '../../support/hub';
import { notifySendStub } from '../../support/notify-send-stub';
import { TestPostgres } from '../../support/postgres';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A desktop notice of a team request reaches a machine of the person's that was offline when
 * it went out: on two hub replicas over one real PostgreSQL, ann's machine (a real daemon) is
 * stopped while a request is filed on build-a and the per-person round runs; when it starts
 * again and links, through the other replica, it shows the request, once, while the request
 * still waits; a request decided while it was away is not shown. A machine of hers that
 * joins after a request was filed shows it too, once.
 */
describe('a desktop notice for a machine that links later', () => {
  let pgServer: TestPostgres;
  let a: TestHub;
  let b: TestHub;
  let db: SqlDatabase;
  let filer: TestDaemon;
  let annBox: TestDaemon;
  let admin: AdminClient;
  let agent: GatehouseClient;
  const stub = notifySendStub();

  /** The audit's desktop deliveries of ann's round for this request. */
  const queued = async (requestId: string) =>
    (await queryAudit(db, { type: 'notification.sent' })).filter(
      (e) => e.requestId === requestId && e.actor === 'ann',
    );

  beforeAll(async () => {
    pgServer = await TestPostgres.start();
    const url = pgServer.createDatabase('desktop_later');
    a = await TestHub.start({ databaseUrl: url });
    b = await TestHub.start({ databaseUrl: url, sameHubAs: a });
    db = await openHubDatabase({ url, dataDir: '' });
    const ann = await a.person('ann');
    expect(
      (await a.api('POST', '/api/me/notify', { token: ann, body: { desktop: true } })).status,
    ).toBe(200);
    filer = await TestDaemon.start({}, ['--no-dashboard']);
    annBox = await TestDaemon.start(stub.env, ['--no-dashboard']);
    await joinHub(filer, a, 'build-a');
    await joinOwned(annBox, a, 'ann-laptop', 'ann', b);
    admin = await filer.admin();
    agent = await filer.agent({ agent: 'builder', project: '/work/p' });
  }, 180_000);

  afterAll(async () => {
    agent?.close();
    admin?.close();
    for (const d of [filer, annBox]) await d?.stop();
    await db?.close();
    await a?.stop();
    await b?.stop();
    pgServer?.stop();
    stub.remove();
  });

  it('shows a request filed while the machine was off once it links, once', async () => {
    // Ann's machine goes away (its daemon stops: the link closes).
    await annBox.signal('SIGTERM');
    const waiting = agent.request({ action: 'deploy', description: 'deploy release 8' });
    const id = (await waitForPending(admin, (r) => r.description === 'deploy release 8')).requestId;
    const gone = agent.request({ action: 'publish', description: 'publish docs' });
    const goneId = (await waitForPending(admin, (r) => r.description === 'publish docs')).requestId;
    // The round ran for both while the machine was off: it was queued for ann-laptop.
    await expect
      .poll(async () => (await queued(id)).length + (await queued(goneId)).length, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(2);
    expect((await queued(id))[0]!.data).toMatchObject({ desktop: ['ann-laptop'] });
    // One of them is decided before the machine is back: it is not shown then.
    await admin.call('decide', { requestId: goneId, decision: 'approve' });
    expect(await gone).toMatchObject({ status: 'approved' });
    await expect
      .poll(
        async () =>
          (
            await db.query<{ status: string }>(
              'SELECT status FROM requests WHERE request_id = $1',
              [goneId],
            )
          )[0]?.status,
        { timeout: 30_000, interval: 250 },
      )
      .toBe('approved');
    expect(stub.summaries()).toEqual([]);

    await annBox.launch(['--no-dashboard']);
    await waitForLink(annBox, true);
    await expect
      .poll(() => stub.summaries(), { timeout: 30_000, interval: 250 })
      .toEqual(['build-a: builder wants to deploy']);

    // Linked again, and more rounds: still once.
    await annBox.signal('SIGTERM');
    await annBox.launch(['--no-dashboard']);
    await waitForLink(annBox, true);
    await sleep(8_000);
    expect(stub.summaries()).toEqual(['build-a: builder wants to deploy']);
    const [row] = await db.query<{ sent_at: string | null }>(
      "SELECT d.sent_at FROM desktop_notices d JOIN machines m ON m.machine_id = d.to_machine_id WHERE m.name = 'ann-laptop' AND d.request_id = $1",
      [id],
    );
    expect(row?.sent_at).not.toBeNull();

    await admin.call('decide', { requestId: id, decision: 'deny' });
    expect(await waiting).toMatchObject({ status: 'denied' });
  }, 150_000);

  it('shows a request still waiting on a machine of hers that joins after it was filed', async () => {
    const waiting = agent.request({ action: 'deploy', description: 'deploy release 9' });
    const id = (await waitForPending(admin, (r) => r.description === 'deploy release 9')).requestId;
    await expect.poll(async () => (await queued(id)).length, { timeout: 30_000 }).toBe(1);
    await expect.poll(() => stub.summaries().length, { timeout: 30_000 }).toBe(2);

    // A new machine of ann's joins now, through replica A, with its own notify-send.
    const late = notifySendStub();
    const newBox = await TestDaemon.start(late.env, ['--no-dashboard']);
    try {
      await joinOwned(newBox, a, 'ann-desk', 'ann');
      await expect
        .poll(() => late.summaries(), { timeout: 30_000, interval: 250 })
        .toEqual(['build-a: builder wants to deploy']);
      // Linked again: still once; and the first request, decided meanwhile, never shows.
      await newBox.signal('SIGTERM');
      await newBox.launch(['--no-dashboard']);
      await waitForLink(newBox, true);
      await sleep(6_000);
      expect(late.summaries()).toEqual(['build-a: builder wants to deploy']);
    } finally {
      await newBox.stop();
      late.remove();
    }
    await admin.call('decide', { requestId: id, decision: 'deny' });
    expect(await waiting).toMatchObject({ status: 'denied' });
  }, 150_000);
});
