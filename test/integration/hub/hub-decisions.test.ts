import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubLinkFiles } from '../../../shared/node/hub-files';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { TestDaemon, waitForPending } from '../../support/daemon';
import { waitForLink, type TestHub } from '../../support/hub';
import { startPostgresHubStage, type PostgresHubStage } from '../../support/hub-postgres-stage';

/** The id of the pending request with this description, once it is filed. */
async function pendingId(admin: AdminClient, description: string): Promise<string> {
  return (await waitForPending(admin, (r) => r.description === description)).requestId;
}

interface HubRequestView {
  requestId: string;
  machineName: string;
  status: string;
  record: { description: string; decidedVia?: string };
}

/** The hub's view of one request, once it shows `status`. */
async function hubShows(
  hub: TestHub,
  token: string,
  requestId: string,
  status: string,
): Promise<HubRequestView> {
  let last: HubRequestView | undefined;
  await expect
    .poll(
      async () => {
        const r = await hub.api('GET', '/api/requests', { token });
        last = (r.body.requests as HubRequestView[]).find((x) => x.requestId === requestId);
        return last?.status;
      },
      { timeout: 15_000 },
    )
    .toBe(status);
  return last!;
}

describe('asks go up, decisions come down (real hub on PostgreSQL, real daemon)', () => {
  let stage: PostgresHubStage;
  let hub: TestHub;
  let daemon: TestDaemon;
  let ann: string;
  let admin: AdminClient;

  beforeAll(async () => {
    // A fixed port: the hub is killed and started again on it (the machine keeps its URL).
    stage = await startPostgresHubStage({ database: 'decisions', port: 'fixed' });
    ({ hub, daemon, admin } = stage);
    ann = await hub.person('ann');
  });
  afterAll(() => stage?.stop());

  it('keeps the machine key 0600 in the data folder, and the join code works once', async () => {
    const files = hubLinkFiles(daemon.home);
    expect(statSync(files.key).mode & 0o777).toBe(0o600);
    const machines = JSON.parse((await hub.cli(['machines', '--json'])).stdout) as {
      name: string;
    }[];
    expect(machines.map((m) => m.name)).toEqual(['laptop']);
    // `gatehouse status` on the machine says it is joined and linked.
    expect((await daemon.cli(['status'])).stdout).toContain(`Hub: ${hub.url} as laptop, linked`);
    const code = await hub.invite('other');
    const other = await TestDaemon.start({}, ['--no-dashboard']);
    try {
      expect((await other.cli(['hub', 'join', hub.url, code])).code).toBe(0);
      const again = await daemon.cli(['hub', 'join', hub.url, code]);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toMatch(/already joined/);
      const third = await TestDaemon.start({}, ['--no-dashboard']);
      const reused = await third.cli(['hub', 'join', hub.url, code]);
      await third.stop();
      expect(reused.code).toBe(1);
      expect(reused.stderr).toContain('the join code is used');
    } finally {
      await other.stop();
    }
  });

  it('a request filed on the machine is decided on the hub and the waiting agent gets approved', async () => {
    const agent = await daemon.agent({ agent: 'builder', project: '/work/p' });
    const answer = agent.request({ action: 'git_push', description: 'push main (hub approves)' });
    const id = await pendingId(admin, 'push main (hub approves)');
    const shown = await hubShows(hub, ann, id, 'pending');
    expect(shown.machineName).toBe('laptop');
    const decided = await hub.api('POST', '/api/decide', {
      token: ann,
      body: { machine: 'laptop', requestId: id, decision: 'approve' },
    });
    expect(decided.status).toBe(200);
    expect(await answer).toMatchObject({ requestId: id, status: 'approved', decidedBy: 'human' });
    const local = JSON.parse((await daemon.cli(['show', id, '--json'])).stdout) as {
      decidedVia: string;
    };
    expect(local.decidedVia).toBe('hub:ann');
    // The outcome went back up: the hub shows the truth.
    expect((await hubShows(hub, ann, id, 'approved')).record.decidedVia).toBe('hub:ann');
    // A second decision on the hub is refused with who decided.
    const again = await hub.api('POST', '/api/decide', {
      token: ann,
      body: { machine: 'laptop', requestId: id, decision: 'deny' },
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toContain('already decided on the hub by ann');
    agent.close();
  });

  it('a request decided on the machine first is refused on the hub with who decided and how', async () => {
    const agent = await daemon.agent({ agent: 'builder', project: '/work/p' });
    const answer = agent.request({ action: 'send_email', description: 'email (decided locally)' });
    const id = await pendingId(admin, 'email (decided locally)');
    await hubShows(hub, ann, id, 'pending');
    expect((await daemon.cli(['deny', id, '--reason', 'not today'])).code).toBe(0);
    expect(await answer).toMatchObject({ status: 'denied' });
    await hubShows(hub, ann, id, 'denied');
    const late = await hub.api('POST', '/api/decide', {
      token: ann,
      body: { machine: 'laptop', requestId: id, decision: 'approve' },
    });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ status: 'denied', decidedVia: 'cli' });
    expect(late.body.error).toContain('already denied via cli');
    agent.close();
  });

  it('a viewer, the hub admin token and no token cannot decide', async () => {
    const agent = await daemon.agent({ agent: 'builder', project: '/work/p' });
    void agent
      .request({ action: 'deploy', target: 'prod', description: 'deploy (nobody may)' })
      .catch(() => undefined);
    const id = await pendingId(admin, 'deploy (nobody may)');
    await hubShows(hub, ann, id, 'pending');
    const body = { machine: 'laptop', requestId: id, decision: 'approve' };
    const viewer = await hub.person('vic', 'viewer');
    expect((await hub.api('POST', '/api/decide', { token: viewer, body })).status).toBe(403);
    const { readFileSync } = await import('node:fs');
    const adminToken = readFileSync(`${hub.home}/hub/admin.token`, 'utf8').trim();
    expect((await hub.api('POST', '/api/decide', { token: adminToken, body })).status).toBe(401);
    expect((await hub.api('POST', '/api/decide', { body })).status).toBe(401);
    expect(
      (await hub.api('POST', '/api/decide', { token: ann, body: { ...body, decision: 'yes' } }))
        .status,
    ).toBe(400);
    const local = JSON.parse((await daemon.cli(['show', id, '--json'])).stdout) as {
      status: string;
    };
    expect(local.status).toBe('pending');
    agent.close();
  });

  it('a hub decision the machine refuses (its agent paused) no longer stands: the person decides again', async () => {
    const agent = await daemon.agent({ agent: 'paused-one', project: '/work/p' });
    const answer = agent.request({ action: 'git_push', description: 'push while paused' });
    const id = await pendingId(admin, 'push while paused');
    await hubShows(hub, ann, id, 'pending');
    expect((await daemon.cli(['pause', 'paused-one'])).code).toBe(0);
    const body = { machine: 'laptop', requestId: id, decision: 'approve' };
    expect((await hub.api('POST', '/api/decide', { token: ann, body })).status).toBe(200);
    // The engine holds approvals of a paused agent: the machine refuses and says why.
    await expect
      .poll(async () => {
        const refused = await admin.call('audit.query', {
          type: 'hub.decision_refused',
          requestId: id,
        });
        return refused.events.map((e) => e.data.reason);
      })
      .toEqual(['engine_refused']);
    expect((await admin.call('request.get', { requestId: id })).request.status).toBe('pending');
    expect((await daemon.cli(['resume', 'paused-one'])).code).toBe(0);
    await expect
      .poll(async () => (await hub.api('POST', '/api/decide', { token: ann, body })).status, {
        timeout: 10_000,
      })
      .toBe(200);
    expect(await answer).toMatchObject({ status: 'approved' });
    agent.close();
  });

  it('keeps the local gate working while the hub is down, and replays the outbox in order when it is back', async () => {
    await hub.signal('SIGKILL');
    await waitForLink(daemon, false);
    const agent = await daemon.agent({ agent: 'builder', project: '/work/p' });
    const answers = [1, 2, 3].map((n) =>
      agent.request({ action: 'git_push', description: `offline push ${n}` }),
    );
    const ids = [];
    for (const n of [1, 2, 3]) ids.push(await pendingId(admin, `offline push ${n}`));
    expect((await daemon.cli(['approve', ids[0]!])).code).toBe(0);
    expect(await answers[0]).toMatchObject({ status: 'approved' });
    // Three asks and one local decision (at least) wait in the outbox (reported each second).
    await expect
      .poll(async () => {
        const r = await daemon.cli(['hub', 'status', '--json']);
        return (JSON.parse(r.stdout) as { state: { outbox: number } }).state.outbox;
      })
      .toBeGreaterThanOrEqual(4);
    await hub.launch();
    await waitForLink(daemon, true, 40_000);
    await hubShows(hub, ann, ids[0]!, 'approved');
    await hubShows(hub, ann, ids[1]!, 'pending');
    const r = await hub.api('POST', '/api/decide', {
      token: ann,
      body: { machine: 'laptop', requestId: ids[2], decision: 'deny', reason: 'from the hub' },
    });
    expect(r.status).toBe(200);
    expect(await answers[2]).toMatchObject({ status: 'denied', reason: 'from the hub' });
    agent.close();
  }, 90_000);

  it('refuses a revoked machine and closes its link', async () => {
    expect((await hub.cli(['revoke', 'laptop'])).code).toBe(0);
    const status = await waitForLink(daemon, false);
    expect(JSON.stringify(status)).toMatch(/revoked|refused/);
    const machines = JSON.parse((await hub.cli(['machines', '--json'])).stdout) as {
      name: string;
      revokedAt?: number;
    }[];
    expect(machines.find((m) => m.name === 'laptop')?.revokedAt).toBeTypeOf('number');
  });
});
