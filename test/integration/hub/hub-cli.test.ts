import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { HubQueueClient } from '../../../clients/cli/commands/hub-queue-client';
import { hubLinkFiles } from '../../../shared/node/hub-files';
import { runCli, waitForPending, type TestDaemon } from '../../support/daemon';
import type { TestHub } from '../../support/hub';
import { startPostgresHubStage, type PostgresHubStage } from '../../support/hub-postgres-stage';
import { shellRequest } from '../../support/hub-service-stage';
import { personHost, type PersonHost } from '../../support/person-host';

/**
 * `gatehouse --hub URL list|show|approve|deny|review` and `gatehouse hub login`: a person's
 * CLI on another host (its own GATEHOUSE_HOME, no daemon) decides what a real daemon's agent
 * waits on, through a real hub on a real PostgreSQL.
 */
describe('the CLI against the hub', () => {
  let stage: PostgresHubStage;
  let dbUrl: string;
  let hub: TestHub;
  let daemon: TestDaemon;
  let admin: AdminClient;
  let ann: string;
  /** The person's host: a GATEHOUSE_HOME with nothing but their login, and no daemon. */
  let person: PersonHost;

  const asAnn = (args: string[], input?: string) =>
    runCli(person.env, ['--hub', hub.url, ...args], input);

  /** Waits until the hub lists the request (the machine published it). */
  async function onHub(id: string): Promise<void> {
    await expect
      .poll(async () => (await asAnn(['list'])).stdout, { timeout: 15_000 })
      .toContain(id);
  }

  beforeAll(async () => {
    stage = await startPostgresHubStage({ database: 'cli' });
    ({ databaseUrl: dbUrl, hub, daemon, admin } = stage);
    ann = await hub.person('ann');
    person = personHost();
  }, 120_000);
  afterAll(async () => {
    person?.remove();
    await stage?.stop();
  });

  it('logs in with a personal token, kept 0600 in GATEHOUSE_HOME, which agents cannot read', async () => {
    const bad = await runCli(person.env, ['hub', 'login', hub.url, '--token', 'ghp_wrong']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('a personal token is required');
    const login = await runCli(person.env, ['hub', 'login', hub.url], `${ann}\n`);
    expect(login).toMatchObject({ code: 0 });
    expect(login.stdout).toContain(`Logged in to ${hub.url} as ann (approver).`);
    const file = join(person.home, 'hub-login.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(ann);
    // On a machine with a daemon, the same file is a protected location for its agents.
    const agent = await daemon.agent({ agent: 'snoop', project: '/work/p' });
    const mine = join(daemon.home, 'hub-login.json');
    for (const a of [
      { action: 'read_file', paths: [mine] },
      { action: 'read_file', command: 'cat $GATEHOUSE_HOME/hub-login.json' },
    ])
      expect(await agent.classify(a)).toMatchObject({ tier: 'ask', risk: 'critical' });
    agent.close();
  });

  it('lists, shows (with the machine) and approves; the waiting agent gets approved once', async () => {
    const agent = await daemon.agent({ agent: 'builder', project: '/work/p' });
    const answer = agent.request({ action: 'git_push', description: 'push via hub cli' });
    const id = (await waitForPending(admin, (r) => r.description === 'push via hub cli')).requestId;
    await onHub(id);
    const list = await asAnn(['list']);
    expect(list.stdout.split('\n')[0]).toMatch(
      /^ID\s+STATUS\s+AGE\s+URGENCY\s+RISK\s+MACHINE\s+AGENT/,
    );
    expect(list.stdout).toMatch(new RegExp(`${id}\\s+pending.*laptop\\s+builder\\s+git_push`));
    const json = JSON.parse((await asAnn(['list', '--json'])).stdout) as { requestId: string }[];
    expect(json.map((r) => r.requestId)).toContain(id);
    const show = await asAnn(['show', id]);
    expect(show.stdout).toContain('Machine:     laptop');
    expect(show.stdout).toContain('Wants to:    push via hub cli');
    expect(JSON.parse((await asAnn(['show', id, '--json'])).stdout)).toMatchObject({
      requestId: id,
      machine: 'laptop',
      agent: 'builder',
    });
    const approved = await asAnn(['approve', id]);
    expect(approved).toMatchObject({ code: 0 });
    expect(approved.stdout.trim()).toBe(`${id}: approved (once)`);
    expect(await answer).toMatchObject({ requestId: id, status: 'approved' });
    expect((await admin.call('request.get', { requestId: id })).request.decidedVia).toBe('hub:ann');
    const again = await asAnn(['approve', id]);
    expect(again.code).toBe(4);
    expect(again.stderr).toContain('already decided on the hub by ann');
    const applied = await admin.call('audit.query', { type: 'request.approved', requestId: id });
    expect(applied.events).toHaveLength(1);
    agent.close();
  });

  it('denies with the reason the agent sees, and reviews at the keyboard', async () => {
    const agent = await daemon.agent({ agent: 'builder', project: '/work/p' });
    const denied = agent.request({ action: 'send_email', description: 'email via hub cli' });
    const reviewed = agent.request({
      action: 'deploy',
      target: 'staging',
      description: 'deploy via review',
    });
    const denyId = (await waitForPending(admin, (r) => r.description === 'email via hub cli'))
      .requestId;
    const reviewId = (await waitForPending(admin, (r) => r.description === 'deploy via review'))
      .requestId;
    await onHub(denyId);
    await onHub(reviewId);
    const deny = await asAnn(['deny', denyId, '--reason', 'not on Friday']);
    expect(deny).toMatchObject({ code: 0 });
    expect(deny.stdout.trim()).toBe(`${denyId}: denied`);
    expect(await denied).toMatchObject({ status: 'denied', reason: 'not on Friday' });
    // The queue now holds the deploy only: review shows it with its machine and approves it.
    const review = await asAnn(['review'], 'v\na\n');
    expect(review).toMatchObject({ code: 0 });
    expect(review.stdout).toContain('builder on laptop wants to: deploy via review');
    expect(review.stdout).toContain('Machine:     laptop');
    expect(review.stdout).toContain('approved once');
    expect(await reviewed).toMatchObject({ status: 'approved' });
    agent.close();
  });

  it('refuses what a hub decision cannot carry, and commands that run on this machine', async () => {
    // A shaped rule must be one the request's machine offered (hub-rule-offers.test.ts): a
    // request the hub does not have offers none.
    const scoped = await asAnn(['approve', 'req_x', '--scope', 'always', '--any-target']);
    expect(scoped.code).toBe(3);
    expect(scoped.stderr).toContain('req_x');
    const other = await runCli(person.env, ['--hub', hub.url, 'rules']);
    expect(other.code).toBe(4);
    expect(other.stderr).toContain('--hub runs list, show, approve, deny, review');
    const unknown = await asAnn(['show', 'req_nope']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('request req_nope not found on the hub');
  });

  it('a viewer, the hub admin token, a machine key or a join code cannot decide or read', async () => {
    const agent = await daemon.agent({ agent: 'builder', project: '/work/p' });
    void agent
      .request({ action: 'deploy', target: 'prod', description: 'deploy (nobody may)' })
      .catch(() => undefined);
    const id = (await waitForPending(admin, (r) => r.description === 'deploy (nobody may)'))
      .requestId;
    await onHub(id);
    const vic = await hub.person('vic', 'viewer');
    const viewer = await runCli({ ...person.env, GATEHOUSE_HUB_TOKEN: vic }, [
      '--hub',
      hub.url,
      'approve',
      id,
    ]);
    expect(viewer.code).toBe(1);
    expect(viewer.stderr).toContain('vic is a viewer and cannot decide');
    // A viewer may read.
    expect(
      (await runCli({ ...person.env, GATEHOUSE_HUB_TOKEN: vic }, ['--hub', hub.url, 'show', id]))
        .stdout,
    ).toContain('Machine:     laptop');
    const adminToken = readFileSync(join(hub.home, 'hub', 'admin.token'), 'utf8').trim();
    const machineKey = readFileSync(hubLinkFiles(daemon.home).key, 'utf8');
    const machineId = (
      JSON.parse(readFileSync(hubLinkFiles(daemon.home).link, 'utf8')) as { machineId: string }
    ).machineId;
    const code = await hub.invite('spare');
    for (const token of [adminToken, machineId, machineKey.split('\n')[1]!, code]) {
      for (const [method, path] of [
        ['GET', `/api/requests/one?id=${id}`],
        ['GET', '/api/requests/page?waiting=1'],
        ['GET', '/api/me'],
      ] as const)
        expect((await hub.api(method, path, { token })).status).toBe(401);
      expect(
        (
          await hub.api('POST', '/api/decide', {
            token,
            body: { machine: 'laptop', requestId: id, decision: 'approve' },
          })
        ).status,
      ).toBe(401);
    }
    // An approver's token cannot join a machine.
    const joining = await hub.api('POST', '/api/join', {
      body: { code: ann, publicKey: 'A'.repeat(60) },
    });
    expect(joining.status).toBe(403);
    expect((await admin.call('request.get', { requestId: id })).request.status).toBe('pending');
    agent.close();
  });

  it('logs in with a sign-in code, once', async () => {
    // A sign-in code as the hub keeps it (by hash), for a person added without a token.
    const code = randomBytes(24).toString('base64url');
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    try {
      const personId = randomUUID();
      await client.query(
        `INSERT INTO people (person_id, name, role, created_at) VALUES ($1, 'bea', 'approver', 0)`,
        [personId],
      );
      await client.query(
        `INSERT INTO person_tokens (token_hash, person_id, kind, created_at, expires_at)
         VALUES ($1, $2, 'sign_in', 0, $3)`,
        [createHash('sha256').update(code).digest('hex'), personId, Date.now() + 600_000],
      );
    } finally {
      await client.end();
    }
    const home = personHost();
    try {
      const link = `${hub.url}/sign-in#code=${code}`;
      const first = await runCli(home.env, ['hub', 'login', hub.url, '--code', link]);
      expect(first).toMatchObject({ code: 0 });
      expect(first.stdout).toContain('as bea (approver)');
      const reused = await runCli(home.env, ['hub', 'login', hub.url, '--code', code]);
      expect(reused.code).toBe(1);
      expect(reused.stderr).toContain('the sign-in code is used');
      expect((await runCli(home.env, ['--hub', hub.url, 'list'])).code).toBe(0);
    } finally {
      home.remove();
    }
  });

  it('lists any number of requests over pages of any size, each once, in order', async () => {
    // Many requests as the machine would have published them, straight into the database.
    const at = Date.now() + 3_600_000;
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    try {
      const [laptop] = (
        await client.query<{ machine_id: string }>(
          "SELECT machine_id FROM machines WHERE name = 'laptop'",
        )
      ).rows;
      for (let i = 0; i < 9; i++) {
        const record = shellRequest(`paged-${i}`, at + i, {
          sessionId: 'paged',
          agent: 'pager',
          description: `paged ${i}`,
          status: i < 4 ? 'pending' : 'approved',
        });
        await client.query(
          `INSERT INTO requests (machine_id, request_id, status, record, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $5)`,
          [laptop!.machine_id, record.requestId, record.status, record, at + i],
        );
      }
    } finally {
      await client.end();
    }
    // The CLI's hub client, two at a time: every page follows the cursor the hub handed out.
    const hubClient = new HubQueueClient(hub.url, { token: ann });
    const walk = async (waiting: boolean): Promise<string[]> => {
      const ids: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = waiting
          ? await hubClient.call('pending.list', { agent: 'pager', limit: 2, cursor })
          : await hubClient.call('requests.query', { agent: 'pager', limit: 2, cursor });
        expect(page.requests.length).toBeLessThanOrEqual(2);
        expect(page.total).toBe(waiting ? 4 : 9);
        ids.push(...page.requests.map((r) => r.requestId));
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(waiting ? 2 : 5);
      return ids;
    };
    expect(await walk(false)).toEqual([8, 7, 6, 5, 4, 3, 2, 1, 0].map((i) => `paged-${i}`));
    expect(await walk(true)).toEqual([0, 1, 2, 3].map((i) => `paged-${i}`));
    // The command itself: a page of two says how many more, --all lists every one.
    const two = await asAnn(['list', '--history', '--agent', 'pager', '--limit', '2']);
    expect(two.stdout).toContain('… and 7 more');
    const all = JSON.parse(
      (await asAnn(['list', '--history', '--agent', 'pager', '--json'])).stdout,
    ) as { requestId: string }[];
    expect(all.map((r) => r.requestId)).toEqual(
      [8, 7, 6, 5, 4, 3, 2, 1, 0].map((i) => `paged-${i}`),
    );
  });
});
