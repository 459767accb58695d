import { describe, expect, it } from 'vitest';
import { runPersonNotifyRound } from '../../../main/hub/hub-person-notify-job';
import { queryAudit } from '../../../main/hub/store/audit-repo';
import { insertDecisionRule } from '../../../main/hub/store/decision-rules-repo';
import { addMember } from '../../../main/hub/store/groups-repo';
import { HUB_BACKENDS, hubDatabases } from '../../support/hub-databases';
import { HubServiceStage, pendingRecord } from '../../support/hub-service-stage';

const record = (id: string, at: number) =>
  pendingRecord({
    requestId: id,
    agent: 'builder',
    action: 'deploy',
    description: `deploy ${id}`,
    at,
  });

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
    const stage = await HubServiceStage.on(await dbs.fresh(backend));
    const { db, clock, identity, hub } = stage;
    const people: Record<string, { token: string; personId: string }> = {};
    for (const name of ['ann', 'cat', 'dan']) people[name] = await stage.person(name);
    const machineIds: Record<string, string> = {};
    for (const [machine, owner] of [
      ['prod-box', 'dan'],
      ['ci', undefined],
      ['ann-box', 'ann'],
      ['cat-box', 'cat'],
      ['dan-box', 'dan'],
    ] as const)
      machineIds[machine] = await stage.machine(machine, owner);
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
      await stage.setNotify(people[name]!.token, { desktop: true });
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
