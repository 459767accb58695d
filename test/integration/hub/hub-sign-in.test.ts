import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { GatehouseClient } from '../../../clients/sdk/client';
import { queryAudit } from '../../../main/hub/store/audit-repo';
import { openHubDatabase } from '../../../main/hub/store/open-database';
import type { SqlDatabase } from '../../../main/hub/store/sql';
import { waitForPending, type TestDaemon } from '../../support/daemon';
import type { TestHub } from '../../support/hub';
import { HubBrowserSession } from '../../support/hub-browser-session';
import { confirmSessionInDatabase } from '../../support/hub-second-factor';
import { startPostgresHubStage, type PostgresHubStage } from '../../support/hub-postgres-stage';

interface Listed {
  machine: string;
  requestId: string;
  status: string;
  record: { description: string; project?: string; agent: string; scope?: string };
  hubDecision?: { person: string };
}

/**
 * Sign-in links, browser sessions and the team dashboard's API on two real hub replicas on
 * one PostgreSQL, with a real daemon joined: a link works once, the session it makes is
 * accepted by either replica, every call is checked for its origin, its CSRF token and the
 * person's role, and a decision's scope travels to the machine.
 */
describe('team dashboard sign-in and its API (two replicas, one PostgreSQL)', () => {
  let stage: PostgresHubStage;
  let db: SqlDatabase;
  let a: TestHub;
  let b: TestHub;
  let daemon: TestDaemon;
  let admin: AdminClient;
  let agent: GatehouseClient;

  beforeAll(async () => {
    // One hub, two replicas: B uses the admin token A made (it lives in the database).
    stage = await startPostgresHubStage({ database: 'signin', secondReplica: true });
    ({ hub: a, daemon, admin } = stage);
    b = stage.replica!;
    db = await openHubDatabase({ url: stage.databaseUrl, dataDir: '' });
    agent = await daemon.agent({ agent: 'builder', project: '/work/shop' });
  }, 120_000);
  afterAll(async () => {
    agent?.close();
    await db?.close();
    await stage?.stop();
  });

  it('a sign-in link works once, on any replica, and sets a strict HttpOnly cookie kept by hash', async () => {
    const link = await a.signInLink('ann', 'approver');
    expect(link).toMatch(new RegExp(`^${a.url}/#signin=[A-Za-z0-9_-]{20,}$`));
    // A sign-in token is no personal token: the API refuses it as a bearer credential.
    const signInToken = new URLSearchParams(new URL(link).hash.slice(1)).get('signin')!;
    expect((await a.api('GET', '/api/requests', { token: signInToken })).status).toBe(401);
    // Printed by replica A's host, spent on replica B: the token lives in PostgreSQL.
    const ann = new HubBrowserSession(b);
    const first = await ann.signIn(link);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ person: { name: 'ann', role: 'approver' } });
    expect(first.setCookie).toMatch(
      /^gatehouse_hub_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/,
    );
    // The session made on B is accepted by A.
    const me = await ann.on(a).call('me');
    expect(me.status).toBe(200);
    expect(me.body.result).toMatchObject({ person: { name: 'ann', role: 'approver' } });
    // Only the session id's hash is stored.
    const stored = await db.query<{ session_hash: string }>(
      'SELECT session_hash FROM browser_sessions',
    );
    const id = ann.cookie.split('=')[1]!;
    expect(stored.map((r) => r.session_hash)).not.toContain(id);
    expect(stored).toHaveLength(1);

    const again = await new HubBrowserSession(a).signIn(link);
    expect(again.status).toBe(401);
    expect(again.body.error).toMatch(/already used/);
    expect(again.setCookie).toBeNull();
    const forged = await new HubBrowserSession(a).signIn(`${a.url}/#signin=${'x'.repeat(32)}`);
    expect(forged.status).toBe(401);
    // Nor is a personal token a sign-in token.
    const personal = await a.person('pat');
    expect((await new HubBrowserSession(a).signIn(`${a.url}/#signin=${personal}`)).status).toBe(
      401,
    );
    const audit = await queryAudit(db);
    expect(audit.filter((e) => e.type === 'person.signed_in').map((e) => e.actor)).toEqual(['ann']);
    expect(
      audit.filter((e) => e.type === 'person.sign_in_refused').map((e) => e.data?.reason),
    ).toEqual(['unknown', 'unknown', 'used']);
  });

  it('an expired link is refused, and behind a TLS proxy the cookie is Secure', async () => {
    const old = await a.signInLink('olga', 'viewer');
    await db.query(
      "UPDATE person_tokens SET expires_at = 1 WHERE kind = 'sign_in' AND used_at IS NULL",
    );
    const r = await new HubBrowserSession(a).signIn(old);
    expect(r.status).toBe(401);
    expect(r.body.error).toMatch(/expired/);
    const tls = await new HubBrowserSession(a).signIn(await a.signInLink('tess', 'viewer'), {
      'x-forwarded-proto': 'https',
    });
    expect(tls.setCookie).toMatch(/; Secure$/);
  });

  it('refuses calls from another origin, without the CSRF token, without a session, and non-JSON', async () => {
    const ann = new HubBrowserSession(a);
    await ann.signIn(await a.signInLink('cara', 'approver'));
    expect((await ann.call('requests.list')).status).toBe(200);
    const crossOrigin = await ann.call(
      'requests.list',
      {},
      { headers: { origin: 'https://evil.example' } },
    );
    expect(crossOrigin.status).toBe(403);
    const crossSite = await ann.call(
      'requests.list',
      {},
      { headers: { 'sec-fetch-site': 'cross-site' } },
    );
    expect(crossSite.status).toBe(403);
    const noCsrf = await ann.call('requests.list', {}, { csrf: null });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error).toMatch(/CSRF/);
    const wrongCsrf = await ann.call('requests.list', {}, { csrf: 'A'.repeat(43) });
    expect(wrongCsrf.status).toBe(403);
    const noSession = await ann.call(
      'requests.list',
      {},
      { cookie: 'gatehouse_hub_session=' + 'B'.repeat(43) },
    );
    expect(noSession.status).toBe(401);
    const form = await ann.call('requests.list', {}, { headers: { 'content-type': 'text/plain' } });
    expect(form.status).toBe(400);
    // A GET changes nothing and answers no method.
    const get = await fetch(new URL('/web/api/requests.list', a.url));
    expect(get.status).toBe(400);
    // An invite through the page's session cannot be spent as a personal token on the API.
    expect((await a.api('GET', '/api/requests', { token: ann.cookie.split('=')[1]! })).status).toBe(
      401,
    );
  });

  it('roles: a viewer reads, an approver decides, an admin manages machines and people', async () => {
    const vic = new HubBrowserSession(a);
    await vic.signIn(await a.signInLink('vic', 'viewer'));
    const ann = new HubBrowserSession(b);
    await ann.signIn(await a.signInLink('ava', 'approver'));
    const boss = new HubBrowserSession(a);
    await boss.signIn(await a.signInLink('boss', 'admin'));

    const answer = agent.request({ action: 'git_push', description: 'push for the team' });
    const id = (await waitForPending(admin, (r) => r.description === 'push for the team'))
      .requestId;
    await expect
      .poll(
        async () =>
          ((await vic.call('requests.list')).body.result as { requests: Listed[] }).requests.map(
            (r) => r.requestId,
          ),
        { timeout: 15_000 },
      )
      .toContain(id);
    const key = { machine: 'laptop', requestId: id };
    const shown = await vic.call('requests.show', key);
    expect(shown.body.result).toMatchObject({
      request: {
        machine: 'laptop',
        requestId: id,
        status: 'pending',
        record: { agent: 'builder' },
      },
    });
    expect((await vic.call('requests.show', { ...key, requestId: 'nope' })).status).toBe(404);
    expect((await vic.call('requests.show', { ...key, machine: 'elsewhere' })).status).toBe(404);
    const refused = await vic.call('decide', { ...key, decision: 'approve' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/vic is a viewer; decide needs an approver/);
    expect((await vic.call('machines.list')).status).toBe(403);
    expect((await ann.call('people.list')).status).toBe(403);
    expect((await ann.call('machines.revoke', { machine: 'laptop' })).status).toBe(403);

    // The scope travels: the machine applies "session" with its own preview.
    const decided = await ann.call('decide', { ...key, decision: 'approve', scope: 'session' });
    expect(decided.status).toBe(200);
    expect(await answer).toMatchObject({ status: 'approved' });
    const onMachine = (await admin.call('request.get', { requestId: id })).request;
    expect(onMachine).toMatchObject({ decidedVia: 'hub:ava', scope: 'session' });
    // "Always" travels too: the machine makes its narrowest rule, and the next deploy is auto.
    const second = agent.request({ action: 'deploy', description: 'deploy once' });
    const id2 = (await waitForPending(admin, (r) => r.description === 'deploy once')).requestId;
    await expect
      .poll(
        async () => (await ann.call('requests.show', { machine: 'laptop', requestId: id2 })).status,
        {
          timeout: 15_000,
        },
      )
      .toBe(200);
    expect(
      (
        await ann.call('decide', {
          machine: 'laptop',
          requestId: id2,
          decision: 'approve',
          scope: 'always',
        })
      ).status,
    ).toBe(200);
    expect(await second).toMatchObject({ status: 'approved' });
    expect((await admin.call('request.get', { requestId: id2 })).request).toMatchObject({
      decidedVia: 'hub:ava',
      scope: 'always',
    });
    expect(await agent.request({ action: 'deploy', description: 'deploy again' })).toMatchObject({
      status: 'approved',
    });
    const again = await boss.call('decide', { ...key, decision: 'deny' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already decided on the hub by ava/);

    // An admin signed in with a link acts as an admin only once confirmed with a passkey.
    const unconfirmed = await boss.call('machines.list');
    expect(unconfirmed.status).toBe(403);
    expect(unconfirmed.body.error).toBe('passkey required: add a passkey before an admin action');
    await confirmSessionInDatabase(db, boss.cookie);
    const machines = (await boss.call('machines.list')).body.result as {
      machines: { name: string; online: boolean; version?: string }[];
    };
    expect(machines.machines).toEqual([expect.objectContaining({ name: 'laptop', online: true })]);
    const added = await boss.call('people.add', { name: 'newbie', role: 'viewer' });
    expect(added.status).toBe(200);
    const newbie = new HubBrowserSession(b);
    expect(
      (await newbie.signIn(`${b.url}/#signin=${(added.body.result as { token: string }).token}`))
        .status,
    ).toBe(200);
    const people = (await boss.call('people.list')).body.result as {
      people: { name: string; role: string }[];
    };
    expect(people.people.map((p) => `${p.name}:${p.role}`)).toContain('newbie:viewer');
    const audit = await queryAudit(db, { type: 'person.added' });
    expect(audit.find((e) => e.data?.name === 'newbie')?.actor).toBe('boss');
  });

  it('filters by machine, project, agent, urgency and blocked, and lists the history', async () => {
    const ann = new HubBrowserSession(a);
    await ann.signIn(await a.signInLink('fil', 'approver'));
    const other = await daemon.agent({ agent: 'writer', project: '/work/docs' });
    try {
      void agent.request({ action: 'send_email', description: 'shop mail', urgency: 'high' });
      void other.request({ action: 'send_email', description: 'docs mail', urgency: 'low' });
      const list = async (filter: Record<string, unknown>) =>
        ((await ann.call('requests.list', filter)).body.result as { requests: Listed[] }).requests
          .map((r) => r.record.description)
          .filter((d) => d.endsWith(' mail'))
          .sort();
      await expect.poll(() => list({}), { timeout: 15_000 }).toEqual(['docs mail', 'shop mail']);
      expect(await list({ project: '/work/docs' })).toEqual(['docs mail']);
      expect(await list({ agent: 'builder' })).toEqual(['shop mail']);
      expect(await list({ urgency: 'high' })).toEqual(['shop mail']);
      expect(await list({ urgency: 'low' })).toEqual(['docs mail', 'shop mail']);
      expect(await list({ machine: 'laptop', blocked: true })).toEqual(['docs mail', 'shop mail']);
      const history = (await ann.call('requests.list', { state: 'decided' })).body.result as {
        requests: Listed[];
      };
      expect(history.requests.map((r) => r.record.description)).toContain('push for the team');
      expect(
        history.requests.find((r) => r.record.description === 'push for the team')?.hubDecision,
      ).toEqual({
        person: 'ava',
        outcome: 'applied',
      });
      const bad = await ann.call('requests.list', { urgency: 'urgent' });
      expect(bad.status).toBe(400);
    } finally {
      other.close();
    }
  });

  it('signing out ends the session on every replica', async () => {
    const sam = new HubBrowserSession(a);
    await sam.signIn(await a.signInLink('sam', 'viewer'));
    const out = await sam.post('/web/signout');
    expect(out.status).toBe(200);
    expect(out.setCookie).toMatch(/^gatehouse_hub_session=; Path=\/; Max-Age=0/);
    expect((await sam.call('me')).status).toBe(401);
    expect((await sam.on(b).call('me')).status).toBe(401);
    expect((await queryAudit(db, { type: 'person.signed_out' })).map((e) => e.actor)).toEqual([
      'sam',
    ]);
    // Back in with a new link an admin makes (on either replica's host), once.
    const made = await b.cli(['user', 'link', 'sam']);
    expect(made.code).toBe(0);
    const link = made.stdout.split('\n')[1]!.trim();
    const again = new HubBrowserSession(a);
    expect((await again.signIn(link)).status).toBe(200);
    expect((await again.call('me')).body.result).toMatchObject({ person: { name: 'sam' } });
    expect((await new HubBrowserSession(a).signIn(link)).status).toBe(401);
    expect((await b.cli(['user', 'link', 'nobody'])).code).toBe(3);
    // Through the dashboard: admins only.
    expect((await again.call('people.link', { name: 'sam' })).status).toBe(403);
    const boss = new HubBrowserSession(b);
    await boss.signIn(await b.signInLink('chief', 'admin'));
    await confirmSessionInDatabase(db, boss.cookie);
    const viaWeb = await boss.call('people.link', { name: 'sam' });
    expect(viaWeb.status).toBe(200);
    const third = new HubBrowserSession(b);
    const token = (viaWeb.body.result as { token: string }).token;
    expect((await third.signIn(`${b.url}/#signin=${token}`)).status).toBe(200);
  });

  it('serves the dashboard page under the CSP', async () => {
    const res = await fetch(new URL('/', b.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    // The page asks for this mark to know it is the team dashboard.
    expect(res.headers.get('x-gatehouse-hub')).toBe('1');
    expect(await res.text()).toContain('<div id="root">');
  });
});
