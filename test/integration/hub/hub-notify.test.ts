import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { waitForPending, type TestDaemon } from '../../support/daemon';
import type { TestHub } from '../../support/hub';
import { startPostgresHubStage, type PostgresHubStage } from '../../support/hub-postgres-stage';
import { startSmtpReceiver, startWebhookReceiver } from '../../support/notify-receivers';
import { startNtfyServer } from '../../support/ntfy-server';

interface WebhookBody {
  notification: { title: string; requestId: string };
  links?: { page: string; approve: string; deny: string };
}

/**
 * Notifications from the hub: a request published by a machine reaches the channels the hub
 * admin set (a real webhook receiver checking the signature, a real ntfy server), once, with
 * both replicas running the job, and with decision links the hub signed.
 */
describe('the hub notifies approvers', () => {
  const secret = 'hub-webhook-secret';
  let stage: PostgresHubStage;
  let a: TestHub;
  let b: TestHub;
  let daemon: TestDaemon;
  let admin: AdminClient;
  let webhook: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let ntfy: Awaited<ReturnType<typeof startNtfyServer>>;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let dir: string;

  beforeAll(async () => {
    webhook = await startWebhookReceiver(secret);
    ntfy = await startNtfyServer();
    smtp = await startSmtpReceiver();
    stage = await startPostgresHubStage({ database: 'notify', secondReplica: true });
    ({ hub: a, daemon, admin } = stage);
    b = stage.replica!;
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-hub-notify-'));
  }, 120_000);
  afterAll(async () => {
    await stage?.stop();
    await webhook?.close();
    await smtp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends each waiting request once through the webhook, ntfy and email, with links the hub signed', async () => {
    const file = join(dir, 'notify.json');
    writeFileSync(
      file,
      JSON.stringify({
        webhook: { enabled: true, url: webhook.url, secret, minUrgency: 'low' },
        ntfy: { enabled: true, server: ntfy.url, topic: 'team-gates', minUrgency: 'low' },
        email: {
          enabled: true,
          host: '127.0.0.1',
          port: smtp.port,
          to: 'approvers@example.com',
          minUrgency: 'low',
        },
      }),
    );
    // Set through replica B: the setting is the hub's, every replica reads it.
    const set = await b.cli(['notify', '--config', file]);
    expect(set).toMatchObject({ code: 0 });
    const agent = await daemon.agent({ agent: 'builder', project: '/work/p' });
    void agent
      .request({ action: 'git_push', description: 'push (notify the team)' })
      .catch(() => undefined);
    const id = (await waitForPending(admin, (r) => r.description === 'push (notify the team)'))
      .requestId;
    await expect.poll(() => webhook.hits.length, { timeout: 15_000 }).toBeGreaterThan(0);
    await ntfy.until(() => ntfy.messages.some((m) => m.title?.includes('laptop')), 15_000);
    // Both replicas run the job every two seconds: still one delivery per channel.
    await new Promise((r) => setTimeout(r, 5_000));
    expect(webhook.hits).toHaveLength(1);
    expect(ntfy.messages.filter((m) => m.topic === 'team-gates')).toHaveLength(1);
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]!.to).toEqual(['approvers@example.com']);
    expect(smtp.mails[0]!.subject).toContain('laptop');
    const hit = webhook.hits[0]!;
    expect(hit.signatureValid).toBe(true);
    const body = JSON.parse(hit.body) as WebhookBody;
    expect(body.notification.requestId).toBe(id);
    expect(body.notification.title).toMatch(/^laptop: /);
    const approve = new URL(body.links!.approve);
    // Without --public-url, the links name the replica whose job sent them (either one).
    const sender = [a.url, b.url].find((u) => u === approve.origin);
    expect(sender).toBeDefined();
    expect(approve.pathname).toBe('/decide');
    expect(approve.searchParams.get('request')).toBe(id);
    const [button] = ntfy.messages[0]!.actions ?? [];
    expect(button).toMatchObject({ label: 'Approve', url: body.links!.approve });
    // The mail (quoted-printable) links to the request's page on the hub, and says how to
    // decide from the CLI against the hub.
    const mail = smtp.mails[0]!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(mail).toContain(body.links!.page);
    expect(mail).toContain(`gatehouse --hub ${sender} approve ${id}`);
    // The hub vouches for its own links, and for nothing edited.
    const check = async (link: string) =>
      (await b.api('GET', `/api/links/check${new URL(link).search}`)).body.signed;
    expect(await check(body.links!.approve)).toBe(true);
    expect(await check(body.links!.page)).toBe(true);
    expect(await check(body.links!.approve.replace('decision=approve', 'decision=deny'))).toBe(
      false,
    );
    // A link decides nothing by itself: the request still waits.
    expect((await admin.call('request.get', { requestId: id })).request.status).toBe('pending');
    agent.close();
  });

  it('only the hub admin token sets the channels', async () => {
    const body = { webhook: { enabled: true, url: 'http://127.0.0.1:1/x' } };
    expect((await a.api('POST', '/api/admin/notify', { body })).status).toBe(401);
    const ann = await a.person('ann');
    expect((await a.api('POST', '/api/admin/notify', { token: ann, body })).status).toBe(401);
    const bad = await a.api('POST', '/api/admin/notify', {
      token: readFileSync(a.adminTokenFile, 'utf8').trim(),
      body: { webhook: { enabled: true, url: 'not a url' } },
    });
    expect(bad.status).toBe(400);
  });
});
