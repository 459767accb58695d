import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubService } from '../../../main/hub/hub-service';
import { runPersonNotifyRound } from '../../../main/hub/hub-person-notify-job';
import { queryAudit } from '../../../main/hub/store/audit-repo';
import { writeNotifyConfig } from '../../../main/hub/store/notify-repo';
import { writeWebhookAllow } from '../../../main/hub/store/webhook-allow-repo';
import type { SqlDatabase } from '../../../main/hub/store/sql';
import type { Ed25519Pair } from '../../../shared/node/hub-keys';
import type { FakeClock } from '../../support/fake-clock';
import { HUB_BACKENDS, hubDatabases } from '../../support/hub-databases';
import { HubServiceStage, pendingRecord } from '../../support/hub-service-stage';
import { startWebhookReceiver } from '../../support/notify-receivers';

const MINUTE = 60_000;

const record = (id: string, at: number) =>
  pendingRecord({
    requestId: id,
    agent: 'claude-code',
    action: 'git_push',
    description: `push ${id}`,
    at,
  });

const dbs = hubDatabases();

/**
 * Per-person channels and reminders, on both of the hub's stores with an injected clock: each
 * person chooses their own webhook (among the hub's channels) and a reminder delay; the round
 * tells them of each new request once and reminds them once per request after the delay, with
 * two rounds racing as two replicas would. Receivers are real HTTP servers checking each
 * person's own signing key.
 */
describe.each(HUB_BACKENDS)('per-person notifications on %s', (backend) => {
  let stage: HubServiceStage;
  let db: SqlDatabase;
  let clock: FakeClock;
  let identity: Ed25519Pair;
  let hub: HubService;
  let machineId: string;
  const tokens: Record<string, string> = {};
  const receivers: Record<string, Awaited<ReturnType<typeof startWebhookReceiver>>> = {};
  let seq = 0;

  const setPrefs = (name: string, body: unknown) => stage.setNotify(tokens[name]!, body);
  const publish = (id: string) =>
    hub.publish(machineId, [
      { seq: ++seq, kind: 'request.asked', request: record(id, clock.now()) },
    ]);
  const round = () =>
    runPersonNotifyRound({ db, clock, identity, publicUrl: 'https://hub.example' });
  /** What each person received: `<request> new` or `<request> reminder`, in order. */
  const titles = (name: string) =>
    receivers[name]!.hits.map((h) => {
      const { notification: n } = JSON.parse(h.body) as {
        notification: { title: string; requestId: string };
      };
      expect(n.title).toContain('laptop: claude-code wants to git_push');
      return `${n.requestId} ${n.title.startsWith('Reminder, still waiting: ') ? 'reminder' : 'new'}`;
    });

  beforeAll(async () => {
    stage = await HubServiceStage.on(await dbs.fresh(backend));
    ({ db, clock, identity, hub } = stage);
    machineId = await stage.machine('laptop');
    for (const [name, role] of [
      ['ann', 'approver'],
      ['bob', 'approver'],
      ['cat', 'approver'],
      ['vic', 'viewer'],
    ] as const) {
      tokens[name] = (await stage.person(name, role)).token;
      receivers[name] = await startWebhookReceiver(`${name}-own-key`);
    }
    // The receivers are on loopback, which a person's webhook may reach only when listed.
    await writeWebhookAllow(db, ['127.0.0.1'], clock.now());
    await writeNotifyConfig(
      db,
      {
        webhook: {
          enabled: true,
          url: 'http://127.0.0.1:9/team',
          secret: 'team',
          minUrgency: 'low',
        },
      },
      clock.now(),
    );
  }, 120_000);
  afterAll(async () => {
    for (const r of Object.values(receivers)) await r.close();
  });

  it('tells each person of a new request once, and reminds them once after their delay', async () => {
    const webhook = (name: string) => ({
      kind: 'webhook',
      url: receivers[name]!.url,
      secret: `${name}-own-key`,
    });
    await setPrefs('ann', { channel: webhook('ann'), remindAfterMinutes: 10 });
    await setPrefs('bob', { channel: webhook('bob'), newRequests: false, remindAfterMinutes: 5 });
    // Cat chose ntfy, which the hub's admin has not set up: nothing reaches her.
    await setPrefs('cat', { channel: { kind: 'ntfy', topic: 'cat-gates' }, remindAfterMinutes: 1 });
    clock.advance(1_000);
    await publish('req_1');

    // Two replicas' rounds at once: one holds the lock, the other skips.
    const both = await Promise.all([round(), round()]);
    expect(both.map((r) => r.sent).sort()).toEqual([0, 1]);
    expect(titles('ann')).toEqual(['req_1 new']);
    expect(titles('bob')).toEqual([]);

    clock.advance(6 * MINUTE);
    await round();
    expect(titles('bob')).toEqual(['req_1 reminder']);
    expect(titles('ann')).toHaveLength(1);

    clock.advance(5 * MINUTE);
    await Promise.all([round(), round()]);
    await round();
    expect(titles('ann')).toEqual(['req_1 new', 'req_1 reminder']);
    // Once per request and person, however many rounds run.
    clock.advance(60 * MINUTE);
    await round();
    expect(titles('ann')).toHaveLength(2);
    expect(titles('bob')).toHaveLength(1);
    expect(titles('cat')).toEqual([]);
    expect(titles('vic')).toEqual([]);
    // Each delivery is signed with the person's own key, never the team webhook's.
    for (const name of ['ann', 'bob'])
      expect(receivers[name]!.hits.every((h) => h.signatureValid)).toBe(true);
    const reminded = await queryAudit(db, { type: 'notification.reminded' });
    expect(reminded.map((e) => e.actor).sort()).toEqual(['ann', 'bob']);
  });

  it('reminds nobody of a request that was decided meanwhile', async () => {
    await publish('req_2');
    await round();
    expect(titles('ann').at(-1)).toBe('req_2 new');
    await hub.publish(machineId, [
      {
        seq: ++seq,
        kind: 'request.decided',
        request: { ...record('req_2', clock.now()), status: 'approved', decidedVia: 'cli' },
      },
    ]);
    clock.advance(60 * MINUTE);
    await round();
    expect(titles('ann').filter((t) => t.includes('req_2'))).toEqual(['req_2 new']);
    expect(titles('bob').filter((t) => t.includes('req_2'))).toEqual([]);
  });

  it('refuses a viewer and settings that do not fit the schema', async () => {
    await expect(setPrefs('vic', { remindAfterMinutes: 5 })).rejects.toThrow(
      'vic is a viewer: the hub notifies who may decide',
    );
    await expect(
      setPrefs('ann', { channel: { kind: 'webhook', url: 'file:///etc/passwd' } }),
    ).rejects.toThrow('expected an http(s) URL');
    await expect(setPrefs('ann', { remindAfterMinutes: 0 })).rejects.toThrow();
    await expect(setPrefs('ann', { everyone: true })).rejects.toThrow();
  });
});
