import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../../shared/domain';
import { HubDecision } from '../../../shared/hub-protocol';
import { generateEd25519 } from '../../../shared/node/hub-keys';
import { HubRefusal, HubService } from '../../../main/hub/hub-service';
import { HubTeamRules } from '../../../main/hub/hub-team-rules';
import { decisionFor } from '../../../main/hub/store/decisions-repo';
import { ensureHubIdentity } from '../../../main/hub/store/identity-repo';
import { registerMachine } from '../../../main/hub/store/machines-repo';
import { addPerson, type Person } from '../../../main/hub/store/people-repo';
import { storePublished } from '../../../main/hub/store/requests-repo';
import { FakeClock } from '../../support/fake-clock';
import { hubDatabases } from '../../support/hub-databases';
import { pendingRecord } from '../../support/hub-service-stage';

const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const dbs = hubDatabases();

const deploy = (id: string): RequestRecord =>
  pendingRecord({
    requestId: id,
    agent: 'builder',
    project: '/srv/prod',
    action: 'deploy',
    description: `deploy ${id}`,
    at: T0,
  });

/**
 * The votes that count are those of people who may decide now: someone taken out of the
 * group after voting no longer counts toward the quorum, and a stricter rule added later
 * governs what was already voted on.
 */
describe('which votes count toward a quorum (the hub service on PostgreSQL)', () => {
  it("a vote of someone taken out of the group since does not count, and a stricter rule is not met by a looser one's votes", async () => {
    const db = await dbs.fresh('postgres');
    const clock = new FakeClock(T0);
    const identity = await ensureHubIdentity(db, generateEd25519, T0);
    const hub = new HubService({ db, clock, identity });
    const team = new HubTeamRules({ db, clock });
    const people: Record<string, Person> = {};
    for (const name of ['ann', 'bob', 'dan', 'eve']) {
      people[name] = { personId: `p-${name}`, name, role: 'approver' };
      await addPerson(db, { ...people[name], now: T0 });
    }
    await team.addGroup('ops');
    for (const name of ['ann', 'bob', 'dan', 'eve']) await team.addMember('ops', name);
    await team.addRule({ action: 'deploy', groups: ['ops'], approvals: 2 });
    await registerMachine(db, { machineId: 'm1', name: 'laptop', publicKey: 'k', now: T0 });
    await db.transaction((tx) =>
      storePublished(
        tx,
        'm1',
        [1, 2].map((n) => ({ seq: n, kind: 'request.asked' as const, request: deploy(`r${n}`) })),
        T0,
      ),
    );
    const vote = (name: string, requestId: string) =>
      hub.decide(people[name]!, { machine: 'laptop', requestId, decision: 'approve' });

    expect(await vote('ann', 'r1')).toMatchObject({ decided: false, approvals: 1, needed: 2 });
    await team.removeMember('ops', 'ann');
    // ann's approval went with her membership: bob's is the first that counts.
    expect(await vote('bob', 'r1')).toMatchObject({ decided: false, approvals: 1, needed: 2 });
    await expect(vote('ann', 'r1')).rejects.toThrow(HubRefusal);
    const made = await vote('dan', 'r1');
    expect(made).toMatchObject({ decided: true, approvals: 2, needed: 2 });
    const signed = HubDecision.parse(JSON.parse((await decisionFor(db, 'm1', 'r1'))!.payload));
    expect(signed.approvals?.map((a) => a.person)).toEqual(['bob', 'dan']);

    // r2 had one approval under the two-approval rule; a stricter rule (three) now governs it.
    expect(await vote('bob', 'r2')).toMatchObject({ decided: false, approvals: 1 });
    await team.addRule({ action: 'deploy', groups: ['ops'], approvals: 3 });
    expect(await vote('dan', 'r2')).toMatchObject({ decided: false, approvals: 2, needed: 3 });
    expect(await decisionFor(db, 'm1', 'r2')).toBeUndefined();
    expect(await vote('eve', 'r2')).toMatchObject({ decided: true, approvals: 3, needed: 3 });
  });
});
