import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { GatehouseClient } from '../../../clients/sdk/client';
import { runCli, waitForPending, type TestDaemon } from '../../support/daemon';
import { waitForLink, type TestHub } from '../../support/hub';
import { HubBrowserSession } from '../../support/hub-browser-session';
import { handLink } from '../../support/hub-hand-link';
import { QuorumStage } from '../../support/hub-quorum-stage';

/**
 * Team decision rules with a quorum, on two hub replicas over one real PostgreSQL, with a
 * real daemon joined (through replica A) and its agent really waiting: `deploy` on a `prod`
 * project needs two approvals from `ops`, and the machine's owner is left out.
 */
describe('quorum on the hub (two replicas, a real machine)', () => {
  let stage: QuorumStage;
  let dbUrl: string;
  let a: TestHub;
  let b: TestHub;
  let daemon: TestDaemon;
  let admin: AdminClient;
  let agent: GatehouseClient;
  let db: pg.Client;
  let personDir: string;
  let tokens: Record<string, string>;

  beforeAll(async () => {
    // olga owns the laptop (the admin says so at invite), and the rule leaves her out.
    stage = await QuorumStage.start({
      database: 'quorum',
      people: ['ann', 'bob', 'dan', 'carl', 'olga'],
      ops: ['ann', 'bob', 'dan', 'olga'],
      project: '/work/prod',
      owner: 'olga',
      secondReplica: true,
    });
    // Replica A (on a port of its own) is killed and started again there: the machine keeps its URL.
    ({ dbUrl, hub: a, daemon, admin, agent, tokens } = stage);
    b = stage.replica!;
    expect((await a.cli(['machines'])).stdout).toMatch(/^laptop {2}joined .* {2}owner olga\n$/);
    expect(stage.rule.stderr).toBe('');
    expect(stage.rule.stdout).toMatch(
      /^Added team rule tr_[0-9a-f]{12}: action deploy, project prod: 2 approvals from ops, not the machine's owner\n$/,
    );
    db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    personDir = mkdtempSync(join(tmpdir(), 'gatehouse-person-'));
  }, 180_000);
  afterAll(async () => {
    await db?.end();
    await stage?.stop();
    if (personDir) rmSync(personDir, { recursive: true, force: true });
  });

  /** `gatehouse --hub URL …` from a person's own host (no daemon there), with their token. */
  const personCli = (hub: TestHub, name: string, args: string[]) =>
    runCli(
      {
        ...process.env,
        GATEHOUSE_HOME: join(personDir, name),
        GATEHOUSE_SOCKET: join(personDir, 'none.sock'),
        GATEHOUSE_HUB_TOKEN: tokens[name]!,
      },
      ['--hub', hub.url, ...args],
    );
  const decide = (hub: TestHub, name: string, requestId: string, decision = 'approve') =>
    hub.api('POST', '/api/decide', {
      token: tokens[name]!,
      body: { machine: 'laptop', requestId, decision },
    });
  /** A signed-in browser session of the team dashboard on `hub`. */
  const dashboard = async (hub: TestHub, name: string) => {
    const link = (await a.cli(['user', 'link', name])).stdout.split('\n')[1]!.trim();
    const session = new HubBrowserSession(hub);
    expect((await session.signIn(link)).status).toBe(200);
    return session;
  };
  /** Files a deploy on the prod project; answers its id once both replicas show it. */
  const fileDeploy = async (description: string, timeoutMs?: number) => {
    const answer = agent.request({
      action: 'deploy',
      // Each its own target: an approval of a timed-out request lets the same call through again.
      target: description,
      description,
      ...(timeoutMs ? { timeoutMs } : {}),
    });
    answer.catch(() => undefined);
    const id = (await waitForPending(admin, (r) => r.description === description)).requestId;
    await expect
      .poll(
        async () =>
          (await a.api('GET', `/api/requests/one?id=${id}`, { token: tokens.ann! })).status,
        {
          timeout: 15_000,
        },
      )
      .toBe(200);
    return { id, answer };
  };
  const decisionsOn = async (requestId: string) =>
    (await db.query('SELECT person, payload FROM decisions WHERE request_id = $1', [requestId]))
      .rows as {
      person: string;
      payload: string;
    }[];
  const localStatus = async (requestId: string) =>
    (await admin.call('request.get', { requestId })).request;

  it('the agent whose wait ends before the quorum hears "1 of 2 approvals"; one person counts once across the dashboard and the CLI', async () => {
    const { id, answer } = await fileDeploy('deploy to prod (quorum)', 8_000);
    const ann = await dashboard(b, 'ann');
    const voted = await ann.call('decide', {
      machine: 'laptop',
      requestId: id,
      decision: 'approve',
    });
    expect(voted.status).toBe(200);
    expect(voted.body.result).toEqual({ person: 'ann', decided: false, approvals: 1, needed: 2 });
    // The same person again, through the other channel (the CLI, on the other replica): counted once.
    const again = await personCli(a, 'ann', ['approve', id]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('ann already voted');
    expect(again.stderr).toContain('1 of 2 approvals');
    const twice = await ann.call('decide', {
      machine: 'laptop',
      requestId: id,
      decision: 'approve',
    });
    expect(twice.status).toBe(409);
    // The dashboard says where the quorum stands, and that ann has voted.
    const shown = await ann.call('requests.show', { machine: 'laptop', requestId: id });
    expect((shown.body.result as { request: { team: unknown } }).request.team).toMatchObject({
      approvals: 1,
      needed: 2,
      groups: ['ops'],
      mayDecide: false,
      why: 'you already voted (approve); a person counts once',
    });
    const ended = await answer;
    expect(ended).toMatchObject({ requestId: id, status: 'timed_out' });
    expect(ended.message).toBe("waiting for the team's approval on the hub: 1 of 2 approvals");
    expect(await decisionsOn(id)).toEqual([]);
    expect((await localStatus(id)).status).toBe('timed_out');

    // bob's approval reaches the quorum: one decision, signed with both approvals.
    const quorum = await decide(a, 'bob', id);
    expect(quorum.status).toBe(200);
    expect(quorum.body).toMatchObject({ person: 'bob', decided: true, approvals: 2, needed: 2 });
    await expect
      .poll(async () => (await localStatus(id)).status, { timeout: 15_000 })
      .toBe('approved');
    expect((await localStatus(id)).decidedVia).toBe('hub:bob');
    // The machine's audit keeps the quorum's approvals as the hub signed them.
    const audited = await admin.call('audit.query', { type: 'hub.quorum_decision', requestId: id });
    expect(audited.events).toHaveLength(1);
    expect(audited.events[0]!.data).toMatchObject({
      decision: 'approve',
      person: 'bob',
      approvals: [
        { person: 'ann', via: 'dashboard', at: expect.any(Number) },
        { person: 'bob', via: 'cli', at: expect.any(Number) },
      ],
    });
  }, 60_000);

  it('approvals on two replicas at the same moment make exactly one decision, and it reaches the machine once', async () => {
    const { id, answer } = await fileDeploy('deploy to prod (race)');
    const votes = await Promise.all([
      decide(a, 'bob', id),
      decide(b, 'dan', id),
      decide(b, 'ann', id),
    ]);
    const decided = votes.filter((v) => v.status === 200 && v.body.decided === true);
    expect(decided).toHaveLength(1);
    // The others counted toward the quorum or came after it was reached: none decided again.
    for (const v of votes.filter((x) => !decided.includes(x))) {
      if (v.status === 200) expect(v.body).toMatchObject({ decided: false, approvals: 1 });
      else {
        expect(v.status).toBe(409);
        expect(v.body.error).toContain('already decided on the hub');
      }
    }
    expect(await answer).toMatchObject({ status: 'approved', decidedBy: 'human' });
    const rows = await decisionsOn(id);
    expect(rows).toHaveLength(1);
    expect((JSON.parse(rows[0]!.payload) as { approvals: unknown[] }).approvals).toHaveLength(2);
    const applied = await admin.call('audit.query', { type: 'hub.quorum_decision', requestId: id });
    expect(applied.events).toHaveLength(1);
  }, 60_000);

  it('a denial after one approval denies', async () => {
    const { id, answer } = await fileDeploy('deploy to prod (denied)');
    expect((await decide(a, 'ann', id)).body).toMatchObject({ decided: false, approvals: 1 });
    const denied = await decide(b, 'bob', id, 'deny');
    expect(denied.status).toBe(200);
    expect(denied.body).toMatchObject({ person: 'bob', decided: true });
    expect(await answer).toMatchObject({ status: 'denied' });
    expect((await localStatus(id)).decidedVia).toBe('hub:bob');
  }, 60_000);

  it('someone outside ops, and the machine owner, see the request read-only and are refused everywhere', async () => {
    const { id } = await fileDeploy('deploy to prod (outsiders)');
    const carl = await decide(b, 'carl', id);
    expect(carl.status).toBe(403);
    expect(carl.body.error).toMatch(
      /^only ops may decide this request \(team rule tr_[0-9a-f]{12}\); carl is not in it$/,
    );
    expect(carl.body.readOnly).toBe(true);
    const olga = await decide(a, 'olga', id);
    expect(olga.status).toBe(403);
    expect(olga.body.error).toContain('olga owns machine laptop');
    // The dashboard shows it read-only, and says why; its decide is refused the same way.
    const web = await dashboard(a, 'carl');
    const shown = await web.call('requests.show', { machine: 'laptop', requestId: id });
    expect((shown.body.result as { request: { team: unknown } }).request.team).toMatchObject({
      mayDecide: false,
      why: expect.stringContaining('carl is not in it'),
    });
    const clicked = await web.call('decide', {
      machine: 'laptop',
      requestId: id,
      decision: 'approve',
    });
    expect(clicked.status).toBe(403);
    const cli = await personCli(b, 'carl', ['approve', id]);
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toContain('only ops may decide this request');
    // Under a team rule, a person in ops cannot leave a rule behind on the machine either.
    const always = await (
      await dashboard(b, 'dan')
    ).call('decide', {
      machine: 'laptop',
      requestId: id,
      decision: 'approve',
      scope: 'always',
    });
    expect(always.status).toBe(400);
    expect(always.body.error).toContain('it is decided once');
    expect(await decisionsOn(id)).toEqual([]);
    expect(
      (await db.query('SELECT count(*)::int AS n FROM request_votes WHERE request_id = $1', [id]))
        .rows[0],
    ).toEqual({ n: 0 });
    expect((await localStatus(id)).status).toBe('pending');
  }, 60_000);

  it('a person cannot put themself in a group, nor add, widen or remove a rule, without the admin token', async () => {
    const carl = tokens.carl!;
    const attempts: [string, unknown][] = [
      ['/api/admin/groups/members', { group: 'ops', person: 'carl' }],
      ['/api/admin/groups', { name: 'carls' }],
      ['/api/admin/rules', { action: 'deploy', groups: ['ops'], approvals: 1 }],
      ['/api/admin/rules/remove', { ruleId: 'tr_000000000000' }],
      ['/api/admin/groups/remove', { name: 'ops' }],
    ];
    for (const [path, body] of attempts) {
      const r = await b.api('POST', path, { token: carl, body });
      expect(r.status, path).toBe(401);
    }
    expect((await b.api('GET', '/api/admin/rules', { token: carl })).status).toBe(401);
    // The dashboard has no method that changes groups or rules, and lists groups to admins only.
    const web = await dashboard(b, 'carl');
    expect((await web.call('groups.add', { name: 'x' })).status).toBe(404);
    expect((await web.call('groups.list')).status).toBe(403);
    const groups = JSON.parse((await a.cli(['group', 'list', '--json'])).stdout) as {
      name: string;
      members: { name: string }[];
    }[];
    expect(groups).toEqual([
      {
        name: 'ops',
        members: ['ann', 'bob', 'dan', 'olga'].map((name) =>
          expect.objectContaining({ name, sources: ['hub'] }),
        ),
      },
    ]);
    const rules = JSON.parse((await a.cli(['rule', 'list', '--json'])).stdout) as {
      approvals: number;
    }[];
    expect(rules.map((r) => r.approvals)).toEqual([2]);
    // The admin's own input is checked: a group that does not exist, a quorum of none.
    const unknown = await a.cli(['rule', 'add', '--action', 'deploy', '--group', 'nosuch']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('no group named nosuch');
    const none = await a.cli(['rule', 'add', '--group', 'ops', '--approvals', '0']);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain('--approvals');
    expect((await a.cli(['rule', 'add', '--action', 'deploy'])).stderr).toContain('--group');
    const inUse = await a.cli(['group', 'remove', 'ops']);
    expect(inUse.code).toBe(1);
    expect(inUse.stderr).toContain('named by team rule');
  }, 60_000);
  it('a machine from before quorum messages (its auth accepts none) never gets one, and keeps its link', async () => {
    const { ws, received } = await handLink(b, await a.invite('oldbox'), { version: '0.0.9' });
    const request = {
      requestId: 'old-1',
      sessionId: 's1',
      agent: 'builder',
      project: '/srv/prod',
      action: 'deploy',
      description: 'deploy from an older machine',
      urgency: 'normal',
      status: 'pending',
      tier: 'ask',
      rule: 'default:deploy',
      ruleReason: 'asks',
      createdAt: new Date().toISOString(),
    };
    ws.send(
      JSON.stringify({ t: 'publish', entries: [{ seq: 1, kind: 'request.asked', request }] }),
    );
    await expect.poll(() => received.some((m) => m.t === 'ack')).toBe(true);
    const vote = await b.api('POST', '/api/decide', {
      token: tokens.ann!,
      body: { machine: 'oldbox', requestId: 'old-1', decision: 'approve' },
    });
    expect(vote.body).toMatchObject({ decided: false, approvals: 1, needed: 2 });
    // The vote's notice reaches this replica within the second (the count goes to machines
    // that accept it, as the other tests show); the older machine hears nothing of it.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(received.map((m) => m.t)).toEqual(['challenge', 'ready', 'ack']);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
  });

  it('a machine that links again after a vote hears where the quorum stands', async () => {
    const { id, answer } = await fileDeploy('deploy to prod (while away)', 25_000);
    // The machine's replica goes away; ann votes on the other one meanwhile.
    await a.signal('SIGKILL');
    await waitForLink(daemon, false);
    expect((await decide(b, 'ann', id)).body).toMatchObject({ decided: false, approvals: 1 });
    await a.launch();
    await waitForLink(daemon, true, 30_000);
    const ended = await answer;
    expect(ended).toMatchObject({ requestId: id, status: 'timed_out' });
    expect(ended.message).toBe("waiting for the team's approval on the hub: 1 of 2 approvals");
  }, 90_000);
});
