import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../../shared/domain';
import { migrate, readMigrations } from '../../../main/hub/store/migrate';
import { openPgDatabase } from '../../../main/hub/store/pg-database';
import { queryAudit } from '../../../main/hub/store/audit-repo';
import {
  expireJoinCodes,
  getMachine,
  registerMachine,
  saveJoinCode,
  spendJoinCode,
} from '../../../main/hub/store/machines-repo';
import {
  getHubRequest,
  listHubRequests,
  storePublished,
} from '../../../main/hub/store/requests-repo';
import {
  answerDecision,
  decisionFor,
  insertDecision,
  unansweredDecisions,
} from '../../../main/hub/store/decisions-repo';
import { addPerson, personByToken, saveToken } from '../../../main/hub/store/people-repo';
import { ensureHubIdentity } from '../../../main/hub/store/identity-repo';
import { generateEd25519 } from '../../../shared/node/hub-keys';
import { HUB_BACKENDS, hubDatabases } from '../../support/hub-databases';
import { shellRequest } from '../../support/hub-service-stage';

const T0 = 1_800_000_000_000;

const request = (id: string, status: RequestRecord['status'] = 'pending'): RequestRecord =>
  shellRequest(id, T0, { status });

const dbs = hubDatabases();

describe.each(HUB_BACKENDS)('the hub store on %s', (backend) => {
  it('migrates once, even when asked again', async () => {
    const db = await dbs.fresh(backend);
    expect(await migrate(db)).toEqual([]);
    const tables = await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
    );
    expect(tables.map((t) => t.table_name)).toEqual([
      'audit',
      'browser_sessions',
      'decision_rules',
      'decisions',
      'desktop_notices',
      'group_members',
      'hub_admin_token',
      'hub_audit_checkpoints',
      'hub_data_jobs',
      'hub_groups',
      'hub_identity',
      'hub_migrations',
      'hub_notified',
      'hub_notify_config',
      'hub_oidc_config',
      'hub_webhook_allow',
      'join_codes',
      'machine_audit_checkpoints',
      'machine_audit_keys',
      'machines',
      'oidc_identities',
      'oidc_invites',
      'oidc_logins',
      'passkey_challenges',
      'passkeys',
      'people',
      'person_notified',
      'person_notify',
      'person_tokens',
      'request_escalations',
      'request_votes',
      'requests',
      'team_policy_bundles',
      'team_rules',
      'team_shadow_records',
    ]);
  });

  it('keeps one hub key, whoever asks first', async () => {
    const db = await dbs.fresh(backend);
    const first = await ensureHubIdentity(db, generateEd25519, T0);
    const second = await ensureHubIdentity(db, generateEd25519, T0 + 1);
    expect(second).toEqual(first);
  });

  it('spends a join code once and never after it expires', async () => {
    const db = await dbs.fresh(backend);
    await saveJoinCode(db, { codeHash: 'a', machineName: 'laptop', now: T0, expiresAt: T0 + 1000 });
    await saveJoinCode(db, { codeHash: 'b', machineName: 'ci', now: T0, expiresAt: T0 + 1000 });
    expect(await db.transaction((tx) => spendJoinCode(tx, 'a', T0 + 1))).toEqual({
      ok: true,
      machineName: 'laptop',
    });
    expect(await db.transaction((tx) => spendJoinCode(tx, 'a', T0 + 2))).toEqual({
      ok: false,
      reason: 'used',
    });
    expect(await db.transaction((tx) => spendJoinCode(tx, 'b', T0 + 1000))).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(await db.transaction((tx) => spendJoinCode(tx, 'zzz', T0))).toEqual({
      ok: false,
      reason: 'unknown',
    });
    expect(await expireJoinCodes(db, T0 + 1000)).toBe(1);
    expect(await expireJoinCodes(db, T0 + 2000)).toBe(0);
  });

  it('stores what a machine publishes once, in order, dropping replays', async () => {
    const db = await dbs.fresh(backend);
    await registerMachine(db, { machineId: 'm1', name: 'laptop', publicKey: 'k', now: T0 });
    const asked = { seq: 1, kind: 'request.asked' as const, request: request('r1') };
    const decided = {
      seq: 2,
      kind: 'request.decided' as const,
      request: { ...request('r1', 'approved'), decidedVia: 'cli' as const },
    };
    expect(await db.transaction((tx) => storePublished(tx, 'm1', [asked, decided], T0))).toBe(2);
    // The same entries again (an acknowledgement that was lost): nothing changes.
    expect(await db.transaction((tx) => storePublished(tx, 'm1', [asked], T0 + 5))).toBe(2);
    const stored = await getHubRequest(db, 'm1', 'r1');
    expect(stored).toMatchObject({ status: 'approved', machineName: 'laptop', createdAt: T0 });
    expect(stored!.record.decidedVia).toBe('cli');
    expect((await getMachine(db, 'm1'))!.lastSeq).toBe(2);
    expect(await queryAudit(db, { type: 'machine.published' })).toHaveLength(2);
    expect(await listHubRequests(db, { waiting: true })).toEqual([]);
  });

  it('starts a re-joined machine afresh: its new outbox numbers from 1 again', async () => {
    const db = await dbs.fresh(backend);
    await registerMachine(db, { machineId: 'm1', name: 'laptop', publicKey: 'k1', now: T0 });
    const asked = (seq: number, id: string) => ({
      seq,
      kind: 'request.asked' as const,
      request: request(id),
    });
    await db.transaction((tx) => storePublished(tx, 'm1', [asked(1, 'r1'), asked(2, 'r2')], T0));
    // Re-installed, invited again under the same name: a new key, and entries from 1.
    const again = await registerMachine(db, {
      machineId: 'm-new',
      name: 'laptop',
      publicKey: 'k2',
      now: T0 + 1,
    });
    expect(again).toMatchObject({ machineId: 'm1', publicKey: 'k2', lastSeq: 0 });
    expect(await db.transaction((tx) => storePublished(tx, 'm1', [asked(1, 'r3')], T0 + 2))).toBe(
      1,
    );
    expect(await getHubRequest(db, 'm1', 'r3')).toBeDefined();
  });

  it('keeps the first decision of a request and takes one answer for it', async () => {
    const db = await dbs.fresh(backend);
    await registerMachine(db, { machineId: 'm1', name: 'laptop', publicKey: 'k', now: T0 });
    const d = {
      machineId: 'm1',
      requestId: 'r1',
      person: 'ann',
      payload: '{}',
      signature: 's',
      createdAt: T0,
    };
    expect(await insertDecision(db, { ...d, decisionId: 'd1' })).toBe(true);
    expect(await insertDecision(db, { ...d, decisionId: 'd2', person: 'bob' })).toBe(false);
    expect((await unansweredDecisions(db, 'm1')).map((x) => x.decisionId)).toEqual(['d1']);
    expect(
      await answerDecision(db, { decisionId: 'd1', machineId: 'm2', outcome: 'applied', now: T0 }),
    ).toBe(false);
    expect(
      await answerDecision(db, { decisionId: 'd1', machineId: 'm1', outcome: 'applied', now: T0 }),
    ).toBe(true);
    expect(
      await answerDecision(db, { decisionId: 'd1', machineId: 'm1', outcome: 'refused', now: T0 }),
    ).toBe(false);
    expect(await unansweredDecisions(db, 'm1')).toEqual([]);
    // Refused by the machine (expired while it was away): no longer standing, a person may decide again.
    const d2 = { ...d, requestId: 'r2' };
    expect(await insertDecision(db, { ...d2, decisionId: 'd3' })).toBe(true);
    expect(
      await answerDecision(db, { decisionId: 'd3', machineId: 'm1', outcome: 'refused', now: T0 }),
    ).toBe(true);
    expect(await decisionFor(db, 'm1', 'r2')).toBeUndefined();
    expect(await insertDecision(db, { ...d2, decisionId: 'd4', person: 'bob' })).toBe(true);
    expect(await insertDecision(db, { ...d2, decisionId: 'd5' })).toBe(false);
    expect((await decisionFor(db, 'm1', 'r2'))?.decisionId).toBe('d4');
  });

  it('finds a person by a personal token only', async () => {
    const db = await dbs.fresh(backend);
    await addPerson(db, { personId: 'p1', name: 'ann', role: 'approver', now: T0 });
    await saveToken(db, { tokenHash: 'h1', personId: 'p1', kind: 'personal', now: T0 });
    await saveToken(db, {
      tokenHash: 'h2',
      personId: 'p1',
      kind: 'sign_in',
      now: T0,
      expiresAt: T0 + 10,
    });
    expect(await personByToken(db, 'h1', T0)).toEqual({
      personId: 'p1',
      name: 'ann',
      role: 'approver',
    });
    expect(await personByToken(db, 'h2', T0)).toBeUndefined();
  });

  it('rolls a failed transaction back whole', async () => {
    const db = await dbs.fresh(backend);
    await expect(
      db.transaction(async (tx) => {
        await registerMachine(tx, { machineId: 'm1', name: 'laptop', publicKey: 'k', now: T0 });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await getMachine(db, 'm1')).toBeUndefined();
  });

  it('delivers a NOTIFY sent in a committed transaction, and none from a rolled-back one', async () => {
    const db = await dbs.fresh(backend);
    const got: string[] = [];
    const stop = await db.listen('hub_test', (p) => got.push(p));
    await db.transaction((tx) => tx.query(`SELECT pg_notify('hub_test', 'kept')`));
    await db
      .transaction(async (tx) => {
        await tx.query(`SELECT pg_notify('hub_test', 'dropped')`);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await db.transaction((tx) => tx.query(`SELECT pg_notify('hub_test', 'last')`));
    await expect.poll(() => got).toEqual(['kept', 'last']);
    await stop();
  });
});

describe('replicas starting together on an empty PostgreSQL database', () => {
  it('migrate it once between them, none failing on the bookkeeping table', async () => {
    const url = dbs.server().createDatabase(`hub_race_${process.pid}`);
    // Eight replicas at once: before the bookkeeping table was made under the lock, two
    // racing CREATE TABLE IF NOT EXISTS failed one of them on pg_type's unique index.
    const replicas = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const db = await openPgDatabase(url);
        try {
          return await migrate(db);
        } finally {
          await db.close();
        }
      }),
    );
    const applied = replicas.flat().sort((a, b) => a - b);
    expect(applied).toEqual(readMigrations().map((m) => m.version));
    expect(replicas.filter((r) => r.length > 0)).toHaveLength(1);
  });
});
