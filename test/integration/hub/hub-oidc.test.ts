import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryAudit } from '../../../main/hub/store/audit-repo';
import { openHubDatabase } from '../../../main/hub/store/open-database';
import type { SqlDatabase } from '../../../main/hub/store/sql';
import { confirmSessionInDatabase } from '../../support/hub-second-factor';
import { TestHub } from '../../support/hub';
import { HubBrowserSession } from '../../support/hub-browser-session';
import { HttpBrowser, TestOidcProvider } from '../../support/oidc-provider';
import { TestPostgres } from '../../support/postgres';

const CLIENT_SECRET = 'hub-client-secret-never-shown-0123456789';
const OTHER_REDIRECT = 'http://127.0.0.1:9/other/callback';
const CALLBACK = '/auth/oidc/callback';
const SESSION_COOKIE =
  /^gatehouse_hub_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/;

/**
 * Single sign-on on a real hub (on PostgreSQL) against a real OpenID provider (oidc-provider)
 * run by the test, the browser spoken over plain HTTP with its cookies: who may sign in, the
 * groups claim becoming hub groups (and going away with it), admin by group, sign-in links
 * kept for bootstrap, and the callbacks an attacker would forge, each really sent.
 */
describe('single sign-on with OpenID Connect (a real provider, a real hub)', () => {
  let pg: TestPostgres;
  let db: SqlDatabase;
  let hub: TestHub;
  let idp: TestOidcProvider;
  let secretFile: string;

  beforeAll(async () => {
    pg = await TestPostgres.start();
    const url = pg.createDatabase('oidc');
    hub = await TestHub.start({ databaseUrl: url });
    db = await openHubDatabase({ url, dataDir: '' });
    idp = await TestOidcProvider.start({
      clients: [
        {
          clientId: 'gatehouse-hub',
          clientSecret: CLIENT_SECRET,
          redirectUris: [`${hub.url}${CALLBACK}`],
        },
        {
          clientId: 'other-app',
          clientSecret: 'other-app-secret-0123456789abcdef',
          redirectUris: [OTHER_REDIRECT],
        },
      ],
      accounts: [
        {
          sub: 'alice-sub',
          email: 'alice@example.com',
          emailVerified: true,
          preferredUsername: 'alice',
          groups: ['ops', 'dev'],
        },
        {
          sub: 'bob-sub',
          email: 'bob@example.com',
          emailVerified: true,
          preferredUsername: 'bob',
        },
        {
          sub: 'mallory-sub',
          email: 'alice-typo@example.com',
          emailVerified: false,
          preferredUsername: 'alice',
          groups: ['ops'],
        },
      ],
    });
    secretFile = join(hub.dir, 'client-secret');
    writeFileSync(secretFile, `${CLIENT_SECRET}\n`, { mode: 0o600 });
  }, 120_000);
  afterAll(async () => {
    await idp?.stop();
    await db?.close();
    await hub?.stop();
    pg?.stop();
  });

  const ssoSet = (...extra: string[]) =>
    hub.cli([
      'sso',
      'set',
      '--issuer',
      idp.issuer,
      '--client-id',
      'gatehouse-hub',
      '--provider-name',
      'Test IdP',
      '--scopes',
      'openid email profile groups',
      ...extra,
    ]);

  /** Starts a sign-in in `browser` as `sub` and follows it to the hub's callback URL. */
  async function toCallback(browser: HttpBrowser, sub: string): Promise<URL> {
    idp.signInAs(sub);
    const { url } = await browser.follow(`${hub.url}/auth/oidc/start`, (u) =>
      u.toString().startsWith(`${hub.url}${CALLBACK}`),
    );
    return new URL(url);
  }

  /** A whole sign-in: the callback's response and, on success, a dashboard session. */
  async function signIn(sub: string, browser = new HttpBrowser()) {
    const callback = await toCallback(browser, sub);
    const res = await browser.get(callback.toString());
    const session = new HubBrowserSession(hub);
    const cookie = browser.cookies(new URL(hub.url).origin).get('gatehouse_hub_session');
    if (res.status === 303 && cookie) {
      session.cookie = `gatehouse_hub_session=${cookie}`;
      const me = await session.call('me');
      session.csrf = (me.body.result as { csrf: string }).csrf;
    }
    return { res, session, browser, text: res.status === 303 ? '' : await res.text() };
  }

  const groupsOf = async (name: string) =>
    (
      await db.query<{ group_name: string; source: string }>(
        `SELECT m.group_name, m.source FROM group_members m JOIN people p USING (person_id)
         WHERE p.name = $1 ORDER BY m.group_name`,
        [name],
      )
    ).map((r) => `${r.group_name}:${r.source}`);
  const roleOf = async (name: string) =>
    (await db.query<{ role: string }>('SELECT role FROM people WHERE name = $1', [name]))[0]?.role;

  it('is off until an admin sets it: every route answers 404', async () => {
    for (const path of ['/auth/oidc/start', `${CALLBACK}?code=x&state=y`]) {
      const res = await fetch(new URL(path, hub.url), { redirect: 'manual' });
      expect(res.status, path).toBe(404);
    }
    const show = await hub.cli(['sso', 'show']);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('Single sign-on is off');
    expect(show.stdout).toContain(`${hub.url}${CALLBACK}`);
  });

  it('refuses an issuer that is not an OpenID provider, and one over plain http elsewhere', async () => {
    const down = await hub.cli([
      'sso',
      'set',
      '--issuer',
      'http://127.0.0.1:9',
      '--client-id',
      'x',
      '--client-secret-file',
      secretFile,
    ]);
    expect(down.code).toBe(4);
    expect(down.stderr).toContain('did not answer as an OpenID provider');
    const plain = await hub.cli([
      'sso',
      'set',
      '--issuer',
      'http://idp.example.com',
      '--client-id',
      'x',
      '--client-secret-file',
      secretFile,
    ]);
    expect(plain.code).toBe(4);
    expect(plain.stderr).toContain('https://');
    expect((await fetch(new URL('/auth/oidc/start', hub.url))).status).toBe(404);
  });

  it('is set from the CLI; the client secret is kept and never shown', async () => {
    const set = await ssoSet('--client-secret-file', secretFile);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('Single sign-on is on: "Sign in with Test IdP"');
    expect(set.stdout).toContain('only those invited');
    const show = await hub.cli(['sso', 'show', '--json']);
    expect(JSON.parse(show.stdout)).toMatchObject({
      enabled: true,
      issuer: idp.issuer,
      clientId: 'gatehouse-hub',
      clientSecretSet: true,
      groupsClaim: 'groups',
      newPeople: 'invite',
      redirectUrl: `${hub.url}${CALLBACK}`,
    });
    expect(show.stdout).not.toContain(CLIENT_SECRET);
    const api = await hub.api('GET', '/api/admin/sso', {
      token: (await import('node:fs')).readFileSync(hub.adminTokenFile, 'utf8').trim(),
    });
    expect(JSON.stringify(api.body)).not.toContain(CLIENT_SECRET);
    // Without the admin token, nothing.
    expect((await hub.api('GET', '/api/admin/sso')).status).toBe(401);
    expect((await hub.api('GET', '/api/sso')).body).toEqual({
      enabled: true,
      provider: 'Test IdP',
    });
  });

  it('keeps sign-in links for bootstrapping an admin while nobody has signed in with it', async () => {
    const refused = await hub.cli(['user', 'add', 'carl', '--role', 'approver']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('single sign-on is on');
    // A personal token for the CLI is no sign-in link: still made.
    expect(await hub.person('cli-user')).toMatch(/^ghp_/);
    const root = await hub.cli(['user', 'add', 'root', '--role', 'admin']);
    expect(root.code, root.stderr).toBe(0);
    expect(root.stdout).toContain('#signin=');
  });

  it('signs in only invited people by default; an unverified email takes no invitation', async () => {
    const bob = await signIn('bob-sub');
    expect(bob.res.status).toBe(403);
    expect(bob.text).toContain('ask a hub admin to invite you');
    expect(bob.res.headers.getSetCookie().join('\n')).not.toContain('gatehouse_hub_session=');

    const invite = await hub.cli([
      'sso',
      'invite',
      'Alice@Example.com',
      '--name',
      'alice',
      '--role',
      'approver',
    ]);
    expect(invite.code, invite.stderr).toBe(0);
    // Mallory's provider account claims alice's email, unverified: refused, the invitation stays.
    const mallory = await signIn('mallory-sub');
    expect(mallory.res.status).toBe(403);
    expect(await roleOf('alice')).toBe('approver');

    const alice = await signIn('alice-sub');
    expect(alice.res.status).toBe(303);
    expect(alice.res.headers.get('location')).toBe('/');
    const setCookies = alice.res.headers.getSetCookie();
    expect(setCookies.find((c) => c.startsWith('gatehouse_hub_session='))).toMatch(SESSION_COOKIE);
    // The binding cookie is cleared once spent.
    expect(setCookies.find((c) => c.startsWith('gatehouse_hub_oidc='))).toMatch(/Max-Age=0/);
    const me = await alice.session.call('me');
    expect(me.status).toBe(200);
    expect(me.body.result).toMatchObject({ person: { name: 'alice', role: 'approver' } });
    expect(await groupsOf('alice')).toEqual(['dev:identity', 'ops:identity']);
    const [entry] = await queryAudit(db, { type: 'person.signed_in', limit: 1 });
    expect(entry).toMatchObject({ actor: 'alice', data: { via: 'oidc', groups: ['ops', 'dev'] } });
    // The same account again is the same person (by its sub), not a new one.
    expect((await signIn('alice-sub')).res.status).toBe(303);
    const people = await db.query<{ n: string }>(
      "SELECT count(*) AS n FROM people WHERE name LIKE 'alice%'",
    );
    expect(Number(people[0]!.n)).toBe(1);
  });

  it('makes new people with the role set when allowed; an account without the claim gets no group', async () => {
    expect((await ssoSet('--new-people', 'viewer')).code).toBe(0);
    const bob = await signIn('bob-sub');
    expect(bob.res.status).toBe(303);
    expect((await bob.session.call('me')).body.result).toMatchObject({
      person: { name: 'bob', role: 'viewer' },
    });
    expect(await groupsOf('bob')).toEqual([]);
    // A viewer cannot decide: the hub refuses it whatever the page shows.
    const decide = await bob.session.call('decide', {
      machine: 'none',
      requestId: 'r1',
      decision: 'approve',
    });
    expect(decide.status).toBe(403);
  });

  it('follows the provider: a group removed there is gone at the next sign-in, and admin follows the admin group', async () => {
    expect((await ssoSet('--admin-group', 'ops')).code).toBe(0);
    // A group an admin gave on the hub is not the provider's to take away.
    await db.query(
      `INSERT INTO hub_groups (name, created_at) VALUES ('oncall', 1) ON CONFLICT DO NOTHING`,
    );
    await db.query(
      `INSERT INTO group_members (group_name, person_id, source, added_at)
       SELECT 'oncall', person_id, 'hub', 1 FROM people WHERE name = 'alice'`,
    );
    expect((await signIn('alice-sub')).res.status).toBe(303);
    expect(await roleOf('alice')).toBe('admin');
    idp.accounts.get('alice-sub')!.groups = ['dev'];
    const again = await signIn('alice-sub');
    expect(again.res.status).toBe(303);
    expect(await groupsOf('alice')).toEqual(['dev:identity', 'oncall:hub']);
    expect(await roleOf('alice')).toBe('approver');
    expect((await again.session.call('me')).body.result).toMatchObject({
      person: { role: 'approver' },
    });
  });

  it('refuses a callback opened in another browser, replayed, with another state, another issuer, a code of another client or another nonce', async () => {
    const set = await ssoSet('--client-secret-file', secretFile, '--new-people', 'viewer');
    expect(set.code, set.stderr).toBe(0);
    const before = (await queryAudit(db, { type: 'person.sign_in_refused' })).length;
    // Login CSRF: the attacker's own callback URL, opened in the victim's browser.
    const attacker = new HttpBrowser();
    const forged = await toCallback(attacker, 'bob-sub');
    const victim = new HttpBrowser();
    const csrf = await victim.get(forged.toString());
    expect(csrf.status).toBe(400);
    expect(await csrf.text()).toContain('not started in this browser');
    expect(victim.cookies(new URL(hub.url).origin).has('gatehouse_hub_session')).toBe(false);

    // Another state than the one this browser's sign-in was started with.
    const browser = new HttpBrowser();
    const good = await toCallback(browser, 'alice-sub');
    const binding = browser.cookies(new URL(hub.url).origin).get('gatehouse_hub_oidc')!;
    const wrongState = new URL(good);
    wrongState.searchParams.set('state', 'not-the-state-of-this-sign-in');
    const wrong = await browser.get(wrongState.toString());
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toMatch(/"state"/);
    // That spent the sign-in: the right URL now finds nothing (replay).
    browser.cookies(new URL(hub.url).origin).set('gatehouse_hub_oidc', binding);
    const replay = await browser.get(good.toString());
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain('start again');

    // A completed sign-in's callback, replayed with its cookie, signs nobody in again.
    const done = new HttpBrowser();
    const doneUrl = await toCallback(done, 'alice-sub');
    const doneBinding = done.cookies(new URL(hub.url).origin).get('gatehouse_hub_oidc')!;
    expect((await done.get(doneUrl.toString())).status).toBe(303);
    const replayer = new HttpBrowser();
    replayer.cookies(new URL(hub.url).origin).set('gatehouse_hub_oidc', doneBinding);
    expect((await replayer.get(doneUrl.toString())).status).toBe(400);

    // Mix-up: an answer that says it comes from another issuer.
    const mix = new HttpBrowser();
    const mixUrl = await toCallback(mix, 'alice-sub');
    mixUrl.searchParams.set('iss', 'http://127.0.0.1:9');
    const mixed = await mix.get(mixUrl.toString());
    expect(mixed.status).toBe(403);
    expect(await mixed.text()).toMatch(/iss/i);

    // A code the provider issued to another client, slipped into this browser's own sign-in.
    const thief = new HttpBrowser();
    const own = await toCallback(thief, 'alice-sub');
    const other = new URL(`${idp.issuer}/auth`);
    for (const [k, v] of Object.entries({
      client_id: 'other-app',
      redirect_uri: OTHER_REDIRECT,
      response_type: 'code',
      scope: 'openid',
      state: own.searchParams.get('state')!,
      nonce: 'other-nonce',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }))
      other.searchParams.set(k, v);
    const { url: otherAnswer } = await thief.follow(other.toString(), (u) =>
      u.toString().startsWith(OTHER_REDIRECT),
    );
    const otherCode = new URL(otherAnswer).searchParams.get('code');
    expect(otherCode).toBeTruthy();
    const injected = new URL(own);
    injected.searchParams.set('code', otherCode!);
    const stolen = await thief.get(injected.toString());
    expect(stolen.status).toBe(403);
    expect(await stolen.text()).toContain('invalid_grant');
    expect(thief.cookies(new URL(hub.url).origin).has('gatehouse_hub_session')).toBe(false);

    // This browser's own request with its nonce swapped: the ID token's nonce is not the hub's.
    const swapper = new HttpBrowser();
    idp.signInAs('alice-sub');
    const { url: authUrl } = await swapper.follow(`${hub.url}/auth/oidc/start`, (u) =>
      u.toString().startsWith(idp.issuer),
    );
    const swapped = new URL(authUrl);
    expect(swapped.searchParams.get('code_challenge_method')).toBe('S256');
    swapped.searchParams.set('nonce', 'a-nonce-of-the-attackers-choice');
    const { url: swappedCallback } = await swapper.follow(swapped.toString(), (u) =>
      u.toString().startsWith(`${hub.url}${CALLBACK}`),
    );
    const nonce = await swapper.get(swappedCallback);
    expect(nonce.status).toBe(403);
    expect(await nonce.text()).toMatch(/nonce/);

    const refusals = await queryAudit(db, { type: 'person.sign_in_refused' });
    expect(refusals.length - before).toBe(7);
    // Nothing secret reached the hub's log: not the client secret, not a code.
    expect(hub.output).not.toContain(CLIENT_SECRET);
    expect(hub.output).not.toContain(otherCode!);
    expect(hub.output).not.toContain(good.searchParams.get('code')!);
  });

  it('keeps sign-in links for bootstrap only once people sign in with it', async () => {
    const refused = await hub.cli(['user', 'link', 'root']);
    expect(refused, refused.stderr).toMatchObject({ code: 1 });
    expect(refused.stderr).toContain('--bootstrap');
    const forced = await hub.cli(['user', 'link', 'root', '--bootstrap']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('#signin=');
    // The admin's dashboard cannot hand out links either.
    const root = new HubBrowserSession(hub);
    expect((await root.signIn(forced.stdout.split('\n')[1]!.trim())).status).toBe(200);
    // An admin's session is confirmed with a passkey before any admin action.
    await confirmSessionInDatabase(db, root.cookie);
    const add = await root.call('people.add', { name: 'dave', role: 'approver' });
    expect(add.status).toBe(409);
    expect(add.body.error).toContain('single sign-on is on');
    expect((await root.call('people.link', { name: 'bob' })).status).toBe(409);
    // Not for someone who is not an admin, even with --bootstrap.
    const notAdmin = await hub.cli(['user', 'link', 'bob', '--bootstrap']);
    expect(notAdmin.code).toBe(1);
    expect(notAdmin.stderr).toContain('only for bootstrapping an admin');
  });

  // Two more hubs start here (one serves, one must refuse): 21.7 s in a green CI run on this
  // 2-core machine, past 30 s in two others; a hub start, not this test's checks, is the time.
  it('is set at start from the hub command line (--sso-config FILE), or the hub does not start', async () => {
    const config = join(hub.dir, 'sso.json');
    writeFileSync(
      config,
      JSON.stringify({
        issuer: idp.issuer,
        clientId: 'gatehouse-hub',
        clientSecretFile: secretFile,
        providerName: 'Test IdP',
        newPeople: 'viewer',
      }),
    );
    const other = await TestHub.start({ args: ['--sso-config', config] });
    try {
      expect(other.output).toContain(`single sign-on on, with ${idp.issuer}`);
      expect((await other.api('GET', '/api/sso')).body).toEqual({
        enabled: true,
        provider: 'Test IdP',
      });
      const show = await other.cli(['sso', 'show', '--json']);
      expect(JSON.parse(show.stdout)).toMatchObject({ newPeople: 'viewer', clientSecretSet: true });
      expect(other.output).not.toContain(CLIENT_SECRET);
    } finally {
      await other.stop();
    }
    writeFileSync(config, JSON.stringify({ issuer: idp.issuer, clientId: 'x', newPeople: 'all' }));
    await expect(TestHub.start({ args: ['--sso-config', config] })).rejects.toThrow(
      /exited with 4[\s\S]*newPeople/,
    );
  }, 90_000);

  it('turned off: the routes answer 404 again and sign-in links are back', async () => {
    const off = await hub.cli(['sso', 'off']);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('Single sign-on is off.');
    expect((await hub.api('GET', '/api/sso')).body).toEqual({ enabled: false });
    for (const path of ['/auth/oidc/start', `${CALLBACK}?code=x&state=y`])
      expect((await fetch(new URL(path, hub.url), { redirect: 'manual' })).status, path).toBe(404);
    expect((await hub.cli(['user', 'link', 'bob'])).code).toBe(0);
  });
});
