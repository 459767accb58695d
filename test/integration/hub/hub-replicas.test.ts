import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { GatehouseClient } from '../../../clients/sdk/client';
import { EXPIRY_LOCK, runExpiryRound } from '../../../main/hub/expiry-job';
import { openHubDatabase } from '../../../main/hub/store/open-database';
import { saveJoinCode } from '../../../main/hub/store/machines-repo';
import { queryAudit } from '../../../main/hub/store/audit-repo';
import { waitForPending, type TestDaemon } from '../../support/daemon';
import { waitForLink, type TestHub } from '../../support/hub';
import { startPostgresHubStage, type PostgresHubStage } from '../../support/hub-postgres-stage';
import type { TestPostgres } from '../../support/postgres';
import { systemClock } from '../../../shared/node/system-clock';

/**
 * Two hub processes on one real PostgreSQL: a machine linked to replica A receives the
 * decision a person made on replica B (LISTEN/NOTIFY), a revoke on B closes a link held by A,
 * a PostgreSQL restart loses no decision, and the expiry job runs under an advisory lock.
 */
describe('hub replicas on one PostgreSQL', () => {
  let stage: PostgresHubStage;
  let pgServer: TestPostgres;
  let url: string;
  let a: TestHub;
  let b: TestHub;
  let daemon: TestDaemon;
  let admin: AdminClient;
  let agent: GatehouseClient;
  let ann: string;

  beforeAll(async () => {
    // Replica B's host has a copy of the admin token replica A made (the hub has one). The
    // machine joins and links through replica A only.
    stage = await startPostgresHubStage({ database: 'replicas', secondReplica: true });
    ({ pg: pgServer, databaseUrl: url, hub: a, daemon, admin } = stage);
    b = stage.replica!;
    agent = await daemon.agent({ agent: 'builder', project: '/work/p' });
    ann = await b.person('ann');
  }, 120_000);
  afterAll(async () => {
    agent?.close();
    await stage?.stop();
  });

  const decideOnB = async (requestId: string, decision: 'approve' | 'deny') =>
    b.api('POST', '/api/decide', { token: ann, body: { machine: 'laptop', requestId, decision } });

  const shownOnB = (requestId: string) =>
    expect
      .poll(
        async () =>
          (
            (await b.api('GET', '/api/requests?waiting=1', { token: ann })).body.requests as {
              requestId: string;
            }[]
          ).some((r) => r.requestId === requestId),
        { timeout: 15_000 },
      )
      .toBe(true);

  it('a decision made on replica B reaches the machine linked to replica A', async () => {
    expect(a.replicaId()).not.toBe(b.replicaId());
    const answer = agent.request({ action: 'git_push', description: 'push via B' });
    const id = (await waitForPending(admin, (r) => r.description === 'push via B')).requestId;
    await shownOnB(id);
    const started = Date.now();
    expect((await decideOnB(id, 'approve')).status).toBe(200);
    expect(await answer).toMatchObject({ status: 'approved' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await admin.call('request.get', { requestId: id })).request.decidedVia).toBe('hub:ann');
  });

  it('loses no decision across a PostgreSQL restart', async () => {
    const answer = agent.request({ action: 'send_email', description: 'email after restart' });
    const id = (await waitForPending(admin, (r) => r.description === 'email after restart'))
      .requestId;
    await shownOnB(id);
    pgServer.restart();
    // B's pool makes new connections; A listens again and catches up on what it missed.
    await expect
      .poll(async () => (await decideOnB(id, 'deny')).status, { timeout: 20_000, interval: 500 })
      .toBe(200);
    expect(await answer).toMatchObject({ status: 'denied' });
  }, 60_000);

  it('expiry runs once: a replica skips the round while another holds the lock', async () => {
    const db1 = await openHubDatabase({ url, dataDir: '' });
    const db2 = await openHubDatabase({ url, dataDir: '' });
    const clock = systemClock;
    try {
      await saveJoinCode(db1, { codeHash: 'old', machineName: 'gone', now: 0, expiresAt: 1 });
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const holder = db1.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1)', [EXPIRY_LOCK]);
        await held;
      });
      await expect.poll(async () => (await runExpiryRound(db2, clock)).ran).toBe(false);
      release();
      await holder;
      // Rounds run again once the lock is free. The replicas run their own rounds too (every
      // minute): whichever round came first expired the code, and only that one.
      // (A replica's round may hold the lock for a moment: polled.)
      await expect.poll(async () => (await runExpiryRound(db2, clock)).ran).toBe(true);
      const audited = await queryAudit(db1, { type: 'join_codes.expired' });
      expect(audited.reduce((sum, e) => sum + Number(e.data?.count), 0)).toBe(1);
      await expect
        .poll(() => runExpiryRound(db1, clock))
        .toEqual({
          ran: true,
          expiredCodes: 0,
          deletedSessions: 0,
          deletedTokens: 0,
          deletedNotices: 0,
          escalated: 0,
        });
    } finally {
      await db1.close();
      await db2.close();
    }
  });

  it('a revoke on replica B closes the link held by replica A, and the machine is refused after', async () => {
    expect((await b.cli(['revoke', 'laptop'])).code).toBe(0);
    const status = await waitForLink(daemon, false);
    expect(JSON.stringify(status)).toMatch(/revoked/);
  });
});
