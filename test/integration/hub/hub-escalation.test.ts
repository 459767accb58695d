import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../../shared/domain';
import { generateEd25519 } from '../../../shared/node/hub-keys';
import { runExpiryRound } from '../../../main/hub/expiry-job';
import { escalationPager } from '../../../main/hub/hub-escalation-page';
import { HubTeamRules } from '../../../main/hub/hub-team-rules';
import { queryAudit } from '../../../main/hub/store/audit-repo';
import { addMember } from '../../../main/hub/store/groups-repo';
import { ensureHubIdentity } from '../../../main/hub/store/identity-repo';
import { registerMachine } from '../../../main/hub/store/machines-repo';
import { writeNotifyConfig } from '../../../main/hub/store/notify-repo';
import { openHubDatabase } from '../../../main/hub/store/open-database';
import { addPerson, type Person } from '../../../main/hub/store/people-repo';
import { getHubRequest, storePublished } from '../../../main/hub/store/requests-repo';
import type { SqlDatabase } from '../../../main/hub/store/sql';
import { recordVote } from '../../../main/hub/store/votes-repo';
import { FakeClock } from '../../support/fake-clock';
import { pendingRecord } from '../../support/hub-service-stage';
import { startWebhookReceiver } from '../../support/notify-receivers';
import { TestPostgres } from '../../support/postgres';

const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const MINUTE = 60_000;
const secret = 'escalation-webhook-secret';

const deploy = (id: string): RequestRecord =>
  pendingRecord({
    requestId: id,
    agent: 'builder',
    project: '/srv/prod',
    action: 'deploy',
    description: `deploy ${id} to prod`,
    urgency: 'low',
    at: T0,
  });

/**
 * Escalation runs in the expiry round, which runs once across replicas: two replicas (two
 * connection pools on one PostgreSQL database) run their rounds at the same moment on an
 * injected clock, and the second group is paged once, through the hub's webhook, only when
 * the rule's time passed without a decision (one approval of two is not a decision).
 */
describe('escalation after T without a decision (two replicas, injected clock)', () => {
  let pg: TestPostgres;
  let replicaA: SqlDatabase;
  let replicaB: SqlDatabase;
  let webhook: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    pg = await TestPostgres.start();
    const url = pg.createDatabase('escalation');
    replicaA = await openHubDatabase({ url, dataDir: '' });
    replicaB = await openHubDatabase({ url, dataDir: '' });
    webhook = await startWebhookReceiver(secret);
  }, 60_000);
  afterAll(async () => {
    await replicaA?.close();
    await replicaB?.close();
    await webhook?.close();
    pg?.stop();
  });

  it('pages the escalation group once, not once per replica, and lets it decide from then on', async () => {
    const clock = new FakeClock(T0);
    const identity = await ensureHubIdentity(replicaA, generateEd25519, T0);
    const ann: Person = { personId: 'p-ann', name: 'ann', role: 'approver' };
    const lea: Person = { personId: 'p-lea', name: 'lea', role: 'approver' };
    for (const p of [ann, lea]) await addPerson(replicaA, { ...p, now: T0 });
    const team = new HubTeamRules({ db: replicaA, clock });
    await team.addGroup('ops');
    await team.addGroup('leads');
    await addMember(replicaA, { group: 'ops', personId: ann.personId, source: 'hub', now: T0 });
    await addMember(replicaA, { group: 'leads', personId: lea.personId, source: 'hub', now: T0 });
    const rule = await team.addRule({
      action: 'deploy',
      project: 'prod',
      groups: ['ops'],
      approvals: 2,
      escalateAfterMinutes: 10,
      escalateTo: 'leads',
    });
    await registerMachine(replicaA, { machineId: 'm1', name: 'laptop', publicKey: 'k', now: T0 });
    await replicaA.transaction((tx) =>
      storePublished(tx, 'm1', [{ seq: 1, kind: 'request.asked', request: deploy('r1') }], T0),
    );
    // One approval of two: still no decision.
    await recordVote(replicaA, {
      machineId: 'm1',
      requestId: 'r1',
      personId: ann.personId,
      person: 'ann',
      vote: 'approve',
      channel: 'cli',
      ruleId: rule.ruleId,
      at: T0 + MINUTE,
    });
    await writeNotifyConfig(
      replicaA,
      // Low urgency is below the channel's floor: an escalation pages whatever the urgency.
      { webhook: { enabled: true, url: webhook.url, secret, minUrgency: 'high' } },
      T0,
    );
    const publicUrl = 'https://hub.example';
    const pagerA = escalationPager({ db: replicaA, clock, identity, publicUrl });
    const pagerB = escalationPager({ db: replicaB, clock, identity, publicUrl });
    const request = (await getHubRequest(replicaA, 'm1', 'r1'))!;
    const machine = { name: 'laptop' };
    expect(await team.viewFor(lea, request, machine)).toMatchObject({
      mayDecide: false,
      groups: ['ops'],
      approvals: 1,
      needed: 2,
    });

    const both = async () => {
      const rounds = await Promise.all([
        runExpiryRound(replicaA, clock, pagerA),
        runExpiryRound(replicaB, clock, pagerB),
      ]);
      return rounds.reduce((sum, r) => sum + (r.ran ? r.escalated : 0), 0);
    };
    clock.set(T0 + 10 * MINUTE - 1);
    expect(await both()).toBe(0);
    clock.set(T0 + 10 * MINUTE);
    expect(await both()).toBe(1);
    expect(await both()).toBe(0);
    clock.set(T0 + 60 * MINUTE);
    expect(await both()).toBe(0);

    expect(webhook.hits).toHaveLength(1);
    expect(webhook.hits[0]!.signatureValid).toBe(true);
    expect(webhook.hits[0]!.body).toContain('Escalated to leads: laptop');
    const escalated = await queryAudit(replicaA, { type: 'request.escalated' });
    expect(escalated.map((e) => e.data)).toEqual([
      { rule: rule.ruleId, to: 'leads', afterMinutes: 10 },
    ]);
    const paged = await queryAudit(replicaA, { type: 'request.escalation_paged' });
    expect(paged.map((e) => e.data)).toEqual([
      { to: 'leads', rule: rule.ruleId, channels: ['webhook'] },
    ]);
    // From the escalation on, the leads may decide too.
    expect(await team.viewFor(lea, request, machine)).toMatchObject({
      mayDecide: true,
      groups: ['ops', 'leads'],
    });
  });
});
