import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { GatehouseClient } from '../../../clients/sdk/client';
import { queryAudit } from '../../../main/hub/store/audit-repo';
import { openHubDatabase } from '../../../main/hub/store/open-database';
import type { HubToMachine } from '../../../shared/hub-protocol';
import { generateEd25519 } from '../../../shared/node/hub-keys';
import { TestDaemon, waitForPending } from '../../support/daemon';
import { joinHub, joinOwned, TestHub } from '../../support/hub';
import { handLink } from '../../support/hub-hand-link';
import { notifySendStub } from '../../support/notify-send-stub';
import { TestPostgres } from '../../support/postgres';
import { RogueHub } from '../../support/rogue-hub';

/**
 * Desktop notifications through a person's joined machine, on two hub replicas over one real
 * PostgreSQL: a request filed on machine build-a shows once on the desktop of ann's machine
 * (ann chose desktop), with the hub's signed page; bob, who did not choose it, sees nothing
 * on his; ann's older machine, whose link does not accept the message, gets none and keeps
 * its link; and a machine cannot send the message to the hub.
 */
describe('team requests on the desktop of the owner’s machine', () => {
  let pgServer: TestPostgres;
  let url: string;
  let a: TestHub;
  let b: TestHub;
  let filer: TestDaemon;
  let annBox: TestDaemon;
  let bobBox: TestDaemon;
  let admin: AdminClient;
  let agent: GatehouseClient;
  const annStub = notifySendStub();
  const bobStub = notifySendStub();
  let oldLink: WebSocket;
  let oldReceived: HubToMachine[];

  beforeAll(async () => {
    pgServer = await TestPostgres.start();
    url = pgServer.createDatabase('desktop');
    a = await TestHub.start({ databaseUrl: url });
    b = await TestHub.start({ databaseUrl: url, sameHubAs: a });
    const ann = await a.person('ann');
    const bob = await a.person('bob');
    // Ann chose desktop notices; bob chose nothing of the kind.
    expect(
      (await b.api('POST', '/api/me/notify', { token: ann, body: { desktop: true } })).status,
    ).toBe(200);
    expect(
      (await b.api('POST', '/api/me/notify', { token: bob, body: { desktop: false } })).status,
    ).toBe(200);

    filer = await TestDaemon.start({}, ['--no-dashboard']);
    annBox = await TestDaemon.start(annStub.env, ['--no-dashboard']);
    bobBox = await TestDaemon.start(bobStub.env, ['--no-dashboard']);
    await joinHub(filer, a, 'build-a');
    // Ann's machine links through the other replica: the notice crosses over NOTIFY.
    await joinOwned(annBox, a, 'ann-laptop', 'ann', b);
    await joinOwned(bobBox, a, 'bob-box', 'bob');

    // Ann's older machine: its auth accepts only `quorum`.
    const invited = await a.cli(['invite', '--machine', 'ann-old', '--owner', 'ann']);
    ({ ws: oldLink, received: oldReceived } = await handLink(a, invited.stdout.split('\n')[1]!, {
      version: '0.0.9',
      accepts: ['quorum'],
    }));

    admin = await filer.admin();
    agent = await filer.agent({ agent: 'builder', project: '/work/p' });
  }, 180_000);

  afterAll(async () => {
    agent?.close();
    admin?.close();
    oldLink?.close();
    for (const d of [filer, annBox, bobBox]) await d?.stop();
    await a?.stop();
    await b?.stop();
    pgServer?.stop();
    for (const s of [annStub, bobStub]) s.remove();
  });

  it('shows a request waiting on build-a once on ann’s machine, with the hub’s page', async () => {
    const answer = agent.request({ action: 'deploy', description: 'deploy release 7' });
    const id = (await waitForPending(admin, (r) => r.description === 'deploy release 7')).requestId;

    await expect
      .poll(() => annStub.notices().length, { timeout: 30_000, interval: 250 })
      .toBeGreaterThan(0);
    const [notice] = annStub.notices();
    expect(notice!.summary).toBe('build-a: builder wants to deploy');
    // The body is markup to the notification server: the link's & arrives escaped.
    const link = /https?:\/\/\S+/.exec(notice!.body)?.[0]?.replaceAll('&amp;', '&');
    expect(notice!.body).toContain('Waiting on build-a');
    expect(link).toBeDefined();
    const page = new URL(link!);
    expect(page.pathname).toBe('/decide');
    expect(page.searchParams.get('machine')).toBe('build-a');
    expect(page.searchParams.get('request')).toBe(id);
    expect(page.searchParams.get('decision')).toBe('open');
    // Signed by the hub: its dashboard opens the request's page from it.
    expect((await b.api('GET', `/api/links/check${page.search}`)).body.signed).toBe(true);

    // Several more rounds on both replicas: still exactly once.
    await new Promise((r) => setTimeout(r, 12_000));
    expect(annStub.notices()).toHaveLength(1);
    // Bob did not choose desktop notices; ann's older machine does not accept them.
    expect(bobStub.notices()).toEqual([]);
    expect(oldReceived.map((m) => m.t)).not.toContain('team_waiting');
    expect(oldLink.readyState).toBe(WebSocket.OPEN);

    // The hub's audit says where it went.
    const db = await openHubDatabase({ url, dataDir: '' });
    try {
      const sent = (await queryAudit(db, { type: 'notification.sent' })).filter(
        (e) => e.requestId === id && e.actor === 'ann',
      );
      expect(sent).toHaveLength(1);
      expect(sent[0]!.data).toMatchObject({
        channels: ['desktop'],
        desktop: ['ann-laptop', 'ann-old'],
      });
    } finally {
      await db.close();
    }

    await admin.call('decide', { requestId: id, decision: 'deny' });
    expect(await answer).toMatchObject({ status: 'denied' });
  }, 90_000);

  it('a machine that sends the message to the hub is closed, and nobody is notified', async () => {
    // The hub's protocol has no such message from a machine: a link that sends one is closed.
    const closed = new Promise<number>((resolve) => oldLink.once('close', (code) => resolve(code)));
    oldLink.send(
      JSON.stringify({
        t: 'team_waiting',
        requestId: 'forged-1',
        machine: 'build-a',
        title: 'approve me',
        urgency: 'high',
        link: 'https://evil.example/decide',
      }),
    );
    expect(await closed).toBe(1008);
    await new Promise((r) => setTimeout(r, 7_000));
    expect(annStub.notices().some((n) => n.body.includes('evil.example'))).toBe(false);
    expect(annStub.notices()).toHaveLength(1);
  }, 30_000);

  it('a hub that does not prove the pinned key raises no notice, before or after its ready', async () => {
    const port = Number(new URL(b.url).port);
    const shown = annStub.notices().length;
    // Ann's machine links through replica b: whoever takes b's address next.
    await b.signal('SIGTERM');
    const forged = {
      t: 'team_waiting',
      requestId: 'forged-2',
      machine: 'build-a',
      title: 'approve me',
      urgency: 'high',
      link: 'https://evil.example/decide',
    };
    const rogue = await RogueHub.start(port, generateEd25519().privateKeyPem, {
      beforeReady: [forged],
    });
    try {
      await expect
        .poll(() => rogue.received.some((m) => m.t === 'auth'), { timeout: 40_000, interval: 200 })
        .toBe(true);
      rogue.send(forged);
      await new Promise((r) => setTimeout(r, 2_000));
      expect(annStub.notices()).toHaveLength(shown);
    } finally {
      await rogue.stop();
    }
  }, 60_000);
});
