import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../../shared/domain';
import {
  getMachine,
  markOffline,
  registerMachine,
  renewOnline,
} from '../../../main/hub/store/machines-repo';
import { listHubRequests, storePublished } from '../../../main/hub/store/requests-repo';
import { insertDecision } from '../../../main/hub/store/decisions-repo';
import { addPerson, saveToken } from '../../../main/hub/store/people-repo';
import {
  createSession,
  endSession,
  listPeople,
  sessionPerson,
  spendSignInToken,
} from '../../../main/hub/store/sessions-repo';
import { HUB_BACKENDS, hubDatabases } from '../../support/hub-databases';
import { shellRequest } from '../../support/hub-service-stage';

const T0 = 1_800_000_000_000;

const request = (
  id: string,
  o: Partial<Pick<RequestRecord, 'status' | 'agent' | 'project' | 'urgency'>> = {},
): RequestRecord => shellRequest(id, T0, o);

const dbs = hubDatabases();

/**
 * The people side of the hub's store (sign-in tokens, browser sessions, the team dashboard's
 * filters, the online mark) on both databases: the same SQL must mean the same on each.
 */
describe.each(HUB_BACKENDS)('the hub people store on %s', (backend) => {
  it('spends a sign-in token once, never after it expires, and never a personal one', async () => {
    const db = await dbs.fresh(backend);
    await addPerson(db, { personId: 'p1', name: 'ann', role: 'viewer', now: T0 });
    const signIn = { personId: 'p1', kind: 'sign_in' as const, now: T0, expiresAt: T0 + 100 };
    await saveToken(db, { ...signIn, tokenHash: 's1' });
    await saveToken(db, { ...signIn, tokenHash: 's2' });
    await saveToken(db, { tokenHash: 'pt', personId: 'p1', kind: 'personal', now: T0 });
    expect(await spendSignInToken(db, 's1', T0 + 1)).toEqual({
      ok: true,
      person: { personId: 'p1', name: 'ann', role: 'viewer' },
    });
    expect(await spendSignInToken(db, 's1', T0 + 2)).toEqual({ ok: false, reason: 'used' });
    expect(await spendSignInToken(db, 's2', T0 + 100)).toEqual({ ok: false, reason: 'expired' });
    expect(await spendSignInToken(db, 'pt', T0 + 1)).toEqual({ ok: false, reason: 'unknown' });
    expect(await spendSignInToken(db, 'nope', T0 + 1)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('finds the person of a live session only: not ended, not expired', async () => {
    const db = await dbs.fresh(backend);
    await addPerson(db, { personId: 'p1', name: 'ann', role: 'approver', now: T0 });
    await createSession(db, { sessionHash: 'h1', personId: 'p1', now: T0, expiresAt: T0 + 50 });
    expect(await sessionPerson(db, 'h1', T0 + 1)).toMatchObject({ name: 'ann' });
    expect(await sessionPerson(db, 'h1', T0 + 50)).toBeUndefined();
    expect(await endSession(db, 'h1', T0 + 2)).toBe(true);
    expect(await endSession(db, 'h1', T0 + 3)).toBe(false);
    expect(await sessionPerson(db, 'h1', T0 + 4)).toBeUndefined();
    expect(await listPeople(db)).toEqual([
      { name: 'ann', role: 'approver', createdAt: T0, lastSignInAt: T0 },
    ]);
  });

  it("filters the team's requests by machine, project, agent, urgency, blocked and state", async () => {
    const db = await dbs.fresh(backend);
    await registerMachine(db, { machineId: 'm1', name: 'laptop', publicKey: 'k', now: T0 });
    await registerMachine(db, { machineId: 'm2', name: 'ci', publicKey: 'k2', now: T0 });
    const asked = (seq: number, r: RequestRecord) => ({
      seq,
      kind: 'request.asked' as const,
      request: r,
    });
    await db.transaction((tx) =>
      storePublished(
        tx,
        'm1',
        [
          asked(1, request('a', { project: '/p/shop', urgency: 'high' })),
          asked(2, request('b', { agent: 'codex', status: 'timed_out' })),
          asked(3, request('c')),
          {
            seq: 4,
            kind: 'request.decided',
            request: { ...request('c', { status: 'denied' }), decidedVia: 'cli' },
          },
        ],
        T0,
      ),
    );
    await db.transaction((tx) =>
      storePublished(tx, 'm2', [asked(1, request('d', { urgency: 'low' }))], T0 + 1),
    );
    await insertDecision(db, {
      decisionId: 'dec-1',
      machineId: 'm1',
      requestId: 'a',
      person: 'ann',
      payload: '{}',
      signature: 'sig',
      createdAt: T0,
    });
    const ids = async (o: Parameters<typeof listHubRequests>[1]) =>
      (await listHubRequests(db, o)).map((r) => r.requestId).sort();
    expect(await ids({ waiting: true })).toEqual(['a', 'b', 'd']);
    expect(await ids({ decided: true })).toEqual(['c']);
    expect(await ids({ machineId: 'm2' })).toEqual(['d']);
    expect(await ids({ project: '/p/shop' })).toEqual(['a']);
    expect(await ids({ agent: 'codex' })).toEqual(['b']);
    expect(await ids({ urgencies: ['high'] })).toEqual(['a']);
    expect(await ids({ urgencies: ['normal', 'high'] })).toEqual(['a', 'b', 'c']);
    expect(await ids({ waiting: true, blocked: true })).toEqual(['a', 'd']);
    expect(await ids({ machineId: 'm1', requestId: 'b' })).toEqual(['b']);
    const [a] = await listHubRequests(db, { requestId: 'a' });
    expect(a!.hubDecision).toEqual({ person: 'ann' });
  });

  it('marks machines online while a replica renews them, and offline when the link closes', async () => {
    const db = await dbs.fresh(backend);
    await registerMachine(db, { machineId: 'm1', name: 'laptop', publicKey: 'k', now: T0 });
    await registerMachine(db, { machineId: 'm2', name: 'ci', publicKey: 'k2', now: T0 });
    await renewOnline(db, ['m1', 'm2'], T0 + 10, T0 + 55);
    expect(await getMachine(db, 'm1')).toMatchObject({ onlineUntil: T0 + 55, lastSeenAt: T0 + 10 });
    await markOffline(db, 'm2', T0 + 20);
    const m2 = await getMachine(db, 'm2');
    expect(m2?.onlineUntil).toBeUndefined();
    expect(m2?.lastSeenAt).toBe(T0 + 20);
    await renewOnline(db, [], T0 + 30, T0 + 75);
    expect((await getMachine(db, 'm1'))?.onlineUntil).toBe(T0 + 55);
  });
});
