import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { personNotifyRoutes } from '../../../main/hub/hub-person-notify-api';
import { runPersonNotifyRound } from '../../../main/hub/hub-person-notify-job';
import { HubService } from '../../../main/hub/hub-service';
import { queryAudit } from '../../../main/hub/store/audit-repo';
import { insertDecisionRule } from '../../../main/hub/store/decision-rules-repo';
import { addMember } from '../../../main/hub/store/groups-repo';
import { ensureHubIdentity } from '../../../main/hub/store/identity-repo';
import type { RequestRecord } from '../../../shared/domain';
import { generateEd25519 } from '../../../shared/node/hub-keys';
import { FakeClock } from '../../support/fake-clock';
import { HUB_BACKENDS, hubDatabases } from '../../support/hub-databases';

function record(id: string, at: number): RequestRecord {
  return {
    requestId: id,
    sessionId: 's1',
    agent: 'builder',
    action: 'deploy',
    description: `deploy ${id}`,
    urgency: 'normal',
    status: 'pending',
    tier: 'ask',
    rule: 'default:deploy',
    ruleReason: 'asks',
    createdAt: new Date(at).toISOString(),
  };
}

const dbs = hubDatabases();

/**
 * Who is shown a team request on their desktop, on both of the hub's stores: the owner of
 * another machine who chose desktop and may decide the request. Under a team rule that names
 * the ops group and leaves the owner out, cat (not in ops) and dan (owns the machine it waits
 * on) see nothing of it, ann (ops) does; a request no rule governs reaches cat too. Read from
 * the round's audit, which names the machines each notice went to.
 */
describe.each(HUB_BACKENDS)('desktop notices and team rules on %s', (backend) => {
  it('shows a governed request only to who may decide it', async () => {
    const db = await dbs.fresh(backend);
    const clock = new FakeClock();
    const identity = await ensureHubIdentity(db, generateEd25519, clock.now());
    const hub = new HubService({ db, clock, identity });
    const people: Record<string, { token: string; personId: string }> = {};
    for (const name of ['ann', 'cat', 'dan']) {
      const added = await hub.addPerson(name, 'approver', { personal: true });
      people[name] = {
        token: added.token,
        personId: (await hub.personByToken(added.token))!.personId,
      };
    }
    const machineIds: Record<string, string> = {};
    for (const [machine, owner] of [
      ['prod-box', 'dan'],
      ['ci', undefined],
      ['ann-box', 'ann'],
      ['cat-box', 'cat'],
      ['dan-box', 'dan'],
    ] as const) {
      const { code } = await hub.invite(machine, undefined, owner);
      machineIds[machine] = (
        await hub.join({ code, publicKey: generateEd25519().publicKey })
      ).machineId;
    }
    for (const name of ['ann', 'dan'])
      await addMember(db, {
        group: 'ops',
        personId: people[name]!.personId,
        source: 'hub',
        now: 0,
      });
    await insertDecisionRule(db, {
      ruleId: 'prod-ops',
      machine: 'prod-box',
      groups: ['ops'],
      approvals: 1,
      excludeOwner: true,
      createdAt: clock.now(),
    });
    for (const name of ['ann', 'cat', 'dan'])
      await personNotifyRoutes({ db, hub, clock })['POST /api/me/notify']!(
        { headers: { authorization: `Bearer ${people[name]!.token}` } } as IncomingMessage,
        { desktop: true },
      );
    clock.advance(1_000);
    await hub.publish(machineIds['prod-box']!, [
      { seq: 1, kind: 'request.asked', request: record('gov-1', clock.now()) },
    ]);
    await hub.publish(machineIds.ci!, [
      { seq: 1, kind: 'request.asked', request: record('free-1', clock.now()) },
    ]);
    await runPersonNotifyRound({ db, clock, identity, publicUrl: 'https://hub.example' });

    const shownTo = async (requestId: string) =>
      Object.fromEntries(
        (await queryAudit(db, { type: 'notification.sent' }))
          .filter((e) => e.requestId === requestId)
          .map((e) => [e.actor, (e.data as { desktop?: string[] }).desktop ?? []]),
      );
    expect(await shownTo('gov-1')).toEqual({ ann: ['ann-box'], cat: [], dan: [] });
    expect(await shownTo('free-1')).toEqual({
      ann: ['ann-box'],
      cat: ['cat-box'],
      dan: ['dan-box', 'prod-box'],
    });
  }, 60_000);
});
