import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubService } from '../../../main/hub/hub-service';
import { personNotifyRoutes } from '../../../main/hub/hub-person-notify-api';
import { runPersonNotifyRound } from '../../../main/hub/hub-person-notify-job';
import { queryAudit } from '../../../main/hub/store/audit-repo';
import { ensureHubIdentity } from '../../../main/hub/store/identity-repo';
import { writeNotifyConfig } from '../../../main/hub/store/notify-repo';
import { writePersonNotify } from '../../../main/hub/store/person-notify-repo';
import type { SqlDatabase } from '../../../main/hub/store/sql';
import { writeWebhookAllow } from '../../../main/hub/store/webhook-allow-repo';
import type { RequestRecord } from '../../../shared/domain';
import { generateEd25519, type Ed25519Pair } from '../../../shared/node/hub-keys';
import { FakeClock } from '../../support/fake-clock';
import { HUB_BACKENDS, hubDatabases } from '../../support/hub-databases';
import { startWebhookReceiver } from '../../support/notify-receivers';

function record(id: string, at: number): RequestRecord {
  return {
    requestId: id,
    sessionId: 's1',
    agent: 'claude-code',
    action: 'git_push',
    description: `push ${id}`,
    urgency: 'normal',
    status: 'pending',
    tier: 'ask',
    rule: 'default:git_push',
    ruleReason: 'asks',
    createdAt: new Date(at).toISOString(),
  };
}

const dbs = hubDatabases();

/**
 * A person's own webhook is an address an approver picks: the hub refuses private, loopback
 * and link-local addresses unless its admin's allow-list lets them, when the person saves it
 * and again where the hub connects, at each send. Real HTTP servers on 127.0.0.1 receive
 * what gets through (and count what must not).
 */
describe.each(HUB_BACKENDS)('the webhook allow-list on %s', (backend) => {
  let db: SqlDatabase;
  let clock: FakeClock;
  let identity: Ed25519Pair;
  let hub: HubService;
  let machineId: string;
  let token: string;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let seq = 0;

  const save = (channel: unknown) =>
    personNotifyRoutes({ db, hub, clock })['POST /api/me/notify']!(
      { headers: { authorization: `Bearer ${token}` } } as IncomingMessage,
      { channel },
    );
  /** Kept as it was saved earlier (when the name may have resolved elsewhere). */
  const saved = async (url: string) => {
    const [person] = await db.query<{ person_id: string }>(
      "SELECT person_id FROM people WHERE name = 'ann'",
    );
    clock.advance(1_000);
    await writePersonNotify(
      db,
      person!.person_id,
      { channel: { kind: 'webhook', url, secret: 'ann-key' }, desktop: false, newRequests: true },
      clock.now(),
    );
    clock.advance(1_000);
  };
  const fileAndRound = async (id: string) => {
    await hub.publish(machineId, [
      { seq: ++seq, kind: 'request.asked', request: record(id, clock.now()) },
    ]);
    return runPersonNotifyRound({ db, clock, identity, publicUrl: 'https://hub.example' });
  };
  const lastFailure = async (requestId: string) => {
    const sent = await queryAudit(db, { type: 'notification.sent' });
    const entry = sent.find((e) => e.requestId === requestId && e.actor === 'ann');
    return (entry?.data as { failed?: string[] } | undefined)?.failed?.join(' ');
  };

  beforeAll(async () => {
    db = await dbs.fresh(backend);
    clock = new FakeClock();
    identity = await ensureHubIdentity(db, generateEd25519, clock.now());
    hub = new HubService({ db, clock, identity });
    const { code } = await hub.invite('laptop');
    machineId = (await hub.join({ code, publicKey: generateEd25519().publicKey })).machineId;
    token = (await hub.addPerson('ann', 'approver', { personal: true })).token;
    receiver = await startWebhookReceiver('ann-key');
    await writeNotifyConfig(
      db,
      {
        webhook: {
          enabled: true,
          url: 'https://team.example/hook',
          minUrgency: 'low',
          maxAttempts: 1,
        },
      },
      clock.now(),
    );
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
  });

  it('refuses loopback by default, when saved and when sent, though the receiver is up', async () => {
    await expect(save({ kind: 'webhook', url: receiver.url })).rejects.toThrow(
      /webhook refused: .*resolves to 127\.0\.0\.1, a private, loopback or link-local address/,
    );
    // A name that resolves to 127.0.0.1 is refused as the address is.
    const byName = receiver.url.replace('127.0.0.1', 'localhost');
    await expect(save({ kind: 'webhook', url: byName })).rejects.toThrow(
      /resolves to 127\.0\.0\.1/,
    );
    // Saved before (as a name that resolved elsewhere then): refused where the hub connects.
    await saved(byName);
    expect((await fileAndRound('req_1')).sent).toBe(0);
    expect(receiver.hits).toHaveLength(0);
    expect(await lastFailure('req_1')).toMatch(/localhost:\d+ resolves to 127\.0\.0\.1/);
    await saved('http://169.254.169.254/latest/meta-data/');
    expect((await fileAndRound('req_2')).sent).toBe(0);
    expect(await lastFailure('req_2')).toMatch(/resolves to 169\.254\.169\.254/);
  });

  it('lets a listed loopback origin through, and only that origin', async () => {
    const origin = new URL(receiver.url).origin;
    await writeWebhookAllow(db, [origin], clock.now());
    await save({ kind: 'webhook', url: receiver.url, secret: 'ann-key' });
    clock.advance(1_000);
    expect((await fileAndRound('req_3')).sent).toBe(1);
    expect(receiver.hits).toHaveLength(1);
    expect(receiver.hits[0]!.signatureValid).toBe(true);
    // Its name, resolving to the same address, is not the listed origin.
    const byName = receiver.url.replace('127.0.0.1', 'localhost');
    await expect(save({ kind: 'webhook', url: byName })).rejects.toThrow(
      /localhost:\d+ is not on the hub's webhook allow-list/,
    );
    await saved(byName);
    expect((await fileAndRound('req_4')).sent).toBe(0);
    expect(receiver.hits).toHaveLength(1);
  });

  it('checks again at each send: an origin taken off the list is refused from then on', async () => {
    await writeWebhookAllow(db, ['127.0.0.0/8'], clock.now());
    await save({ kind: 'webhook', url: receiver.url, secret: 'ann-key' });
    clock.advance(1_000);
    expect((await fileAndRound('req_5')).sent).toBe(1);
    expect(receiver.hits).toHaveLength(2);
    await writeWebhookAllow(db, [], clock.now());
    expect((await fileAndRound('req_6')).sent).toBe(0);
    expect(receiver.hits).toHaveLength(2);
    expect(await lastFailure('req_6')).toMatch(/127\.0\.0\.1/);
  });

  it('follows no redirect: a listed receiver cannot bounce the hub elsewhere', async () => {
    const target = await startWebhookReceiver('ann-key');
    const bouncer = createServer((_req, res) => res.writeHead(307, { location: target.url }).end());
    await new Promise<void>((resolve) => bouncer.listen(0, '127.0.0.1', resolve));
    try {
      const bounce = `http://127.0.0.1:${(bouncer.address() as AddressInfo).port}/hook`;
      await writeWebhookAllow(db, [new URL(bounce).origin], clock.now());
      await save({ kind: 'webhook', url: bounce, secret: 'ann-key' });
      clock.advance(1_000);
      expect((await fileAndRound('req_7')).sent).toBe(0);
      expect(target.hits).toHaveLength(0);
      expect(await lastFailure('req_7')).toMatch(/HTTP 307/);
    } finally {
      bouncer.closeAllConnections();
      await new Promise<void>((resolve) => bouncer.close(() => resolve()));
      await target.close();
    }
  });
});
