import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestHub } from '../../support/hub';

/**
 * Every admin route of the hub, with a body. Most bodies are empty: the credential is checked
 * before the body is read, so a refusal is 401 whatever the body says.
 */
const ADMIN_ROUTES: { method: 'GET' | 'POST'; path: string; body?: unknown }[] = [
  { method: 'POST', path: '/api/admin/invite', body: { machine: 'laptop' } },
  { method: 'GET', path: '/api/admin/machines' },
  { method: 'POST', path: '/api/admin/revoke', body: { machine: 'laptop' } },
  { method: 'POST', path: '/api/admin/people', body: { name: 'mallory', role: 'admin' } },
  { method: 'POST', path: '/api/admin/people/link', body: { name: 'ann' } },
  { method: 'POST', path: '/api/admin/people/passkeys/reset', body: { name: 'ann' } },
  { method: 'GET', path: '/api/admin/notify' },
  { method: 'POST', path: '/api/admin/notify', body: {} },
  { method: 'GET', path: '/api/admin/groups' },
  { method: 'POST', path: '/api/admin/groups', body: { name: 'ops' } },
  { method: 'POST', path: '/api/admin/groups/remove', body: { name: 'ops' } },
  { method: 'POST', path: '/api/admin/groups/members', body: { group: 'ops', person: 'ann' } },
  { method: 'POST', path: '/api/admin/groups/members/remove', body: {} },
  { method: 'GET', path: '/api/admin/rules' },
  { method: 'POST', path: '/api/admin/rules', body: {} },
  { method: 'POST', path: '/api/admin/rules/remove', body: {} },
  { method: 'GET', path: '/api/admin/policy' },
  { method: 'GET', path: '/api/admin/policy/shadow' },
  { method: 'POST', path: '/api/admin/policy/add', body: {} },
  { method: 'POST', path: '/api/admin/policy/mode', body: {} },
  { method: 'POST', path: '/api/admin/policy/publish', body: {} },
  { method: 'POST', path: '/api/admin/policy/remove', body: {} },
  { method: 'GET', path: '/api/admin/sso' },
  { method: 'POST', path: '/api/admin/sso', body: {} },
  { method: 'POST', path: '/api/admin/sso/invite', body: {} },
  { method: 'POST', path: '/api/admin/sso/off', body: {} },
  { method: 'POST', path: '/api/admin/audit/verify', body: {} },
  { method: 'GET', path: '/api/admin/webhook-allow' },
  { method: 'POST', path: '/api/admin/webhook-allow', body: {} },
];

/** The `METHOD /api/admin/…` routes the hub's source declares. */
function declaredAdminRoutes(): string[] {
  const dir = join(__dirname, '../../../main/hub');
  const found = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts')))
    for (const m of readFileSync(join(dir, file), 'utf8').matchAll(
      /'((?:GET|POST|PUT|DELETE) \/api\/admin[^']*)'/g,
    ))
      found.add(m[1]!);
  return [...found].sort();
}

/**
 * The hub's admin routes answer only to the hub's admin token: no credential, a person's
 * token (an admin's included: people act through the dashboard's own checks), a sign-in
 * link's token, a join code or a made-up token is refused, and nothing is changed.
 */
describe("the hub's admin routes", () => {
  let hub: TestHub;
  let adminToken: string;

  beforeAll(async () => {
    hub = await TestHub.start();
    adminToken = readFileSync(hub.adminTokenFile, 'utf8').trim();
  }, 120_000);
  afterAll(async () => {
    await hub?.stop();
  });

  it('are all in this test', () => {
    expect(declaredAdminRoutes()).toEqual(ADMIN_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('refuse every credential but the admin token', async () => {
    const approver = await hub.person('ann');
    const admin = await hub.person('ada', 'admin');
    const signIn = /#signin=(\S+)$/.exec(await hub.signInLink('bob'))![1]!;
    const invite = await hub.api('POST', '/api/admin/invite', {
      token: adminToken,
      body: { machine: 'desk' },
    });
    const joinCode = String(invite.body.code);
    const others: [string, string | undefined][] = [
      ['no credential', undefined],
      ["an approver's token", approver],
      ["an admin person's token", admin],
      ["a sign-in link's token", signIn],
      ['a join code', joinCode],
      ['a made-up token', 'x'.repeat(43)],
    ];
    for (const route of ADMIN_ROUTES)
      for (const [what, token] of others) {
        const r = await hub.api(route.method, route.path, {
          ...(token ? { token } : {}),
          ...(route.body !== undefined ? { body: route.body } : {}),
        });
        expect({ route: route.path, what, status: r.status }).toEqual({
          route: route.path,
          what,
          status: 401,
        });
      }
    // Nothing was changed: no person named mallory, no group, no team policy published.
    const people = await hub.cli(['user', 'list']);
    expect(people.stdout).not.toContain('mallory');
    expect((await hub.api('GET', '/api/admin/groups', { token: adminToken })).body).toEqual({
      groups: [],
    });
    // The admin token itself is accepted by each.
    for (const route of ADMIN_ROUTES.filter((r) => r.method === 'GET'))
      expect({
        route: route.path,
        status: (await hub.api(route.method, route.path, { token: adminToken })).status,
      }).toEqual({ route: route.path, status: route.path.endsWith('/shadow') ? 400 : 200 });
    expect(
      (
        await hub.api('POST', '/api/admin/people/link', {
          token: adminToken,
          body: { name: 'ann' },
        })
      ).status,
    ).toBe(200);
  });
});
