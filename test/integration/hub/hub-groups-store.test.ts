import { describe, expect, it } from 'vitest';
import {
  addMember,
  deleteGroup,
  ensureGroup,
  groupsOf,
  listGroups,
  removeMember,
  replaceIdentityGroups,
} from '../../../main/hub/store/groups-repo';
import { addPerson } from '../../../main/hub/store/people-repo';
import { HUB_BACKENDS, hubDatabases } from '../../support/hub-databases';

const T0 = 1_800_000_000_000;
const dbs = hubDatabases();

describe.each(HUB_BACKENDS)("the hub's groups on %s", (backend) => {
  it('keeps memberships by source: a sign-in replaces only what the identity provider gave', async () => {
    const db = await dbs.fresh(backend);
    await addPerson(db, { personId: 'p1', name: 'ana', role: 'approver', now: T0 });
    await addPerson(db, { personId: 'p2', name: 'bo', role: 'approver', now: T0 });
    expect(await ensureGroup(db, 'ops', T0)).toBe(true);
    expect(await ensureGroup(db, 'ops', T0)).toBe(false);
    await addMember(db, { group: 'ops', personId: 'p1', source: 'hub', now: T0 });
    await addMember(db, { group: 'ops', personId: 'p1', source: 'hub', now: T0 });
    await replaceIdentityGroups(db, 'p1', ['ops', 'dev'], T0);
    await replaceIdentityGroups(db, 'p2', ['dev'], T0);
    expect(await groupsOf(db, 'p1')).toEqual(['dev', 'ops']);
    expect(await listGroups(db)).toEqual([
      {
        name: 'dev',
        createdAt: T0,
        members: [
          { personId: 'p1', name: 'ana', sources: ['identity'] },
          { personId: 'p2', name: 'bo', sources: ['identity'] },
        ],
      },
      {
        name: 'ops',
        createdAt: T0,
        members: [{ personId: 'p1', name: 'ana', sources: ['hub', 'identity'] }],
      },
    ]);
    // The provider stops naming ops and dev: the admin's ops membership stays.
    await replaceIdentityGroups(db, 'p1', [], T0 + 1);
    expect(await groupsOf(db, 'p1')).toEqual(['ops']);
    // An admin's removal leaves what the provider gave.
    await replaceIdentityGroups(db, 'p1', ['ops'], T0 + 2);
    expect(await removeMember(db, { group: 'ops', personId: 'p1', source: 'hub' })).toBe(true);
    expect(await removeMember(db, { group: 'ops', personId: 'p1', source: 'hub' })).toBe(false);
    expect(await groupsOf(db, 'p1')).toEqual(['ops']);
    // Deleting a group takes its memberships with it.
    expect(await deleteGroup(db, 'ops')).toBe(true);
    expect(await deleteGroup(db, 'ops')).toBe(false);
    expect(await groupsOf(db, 'p1')).toEqual([]);
  });
});
