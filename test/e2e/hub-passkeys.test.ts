import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryAudit } from '../../main/hub/store/audit-repo';
import { openHubDatabase } from '../../main/hub/store/open-database';
import type { SqlDatabase } from '../../main/hub/store/sql';
import { launchBrowser, openPage, type WatchedPage } from '../support/browser';
import { freePort } from '../support/free-port';
import { TestHub } from '../support/hub';
import { postFromPage } from '../support/hub-page-calls';
import { TestPostgres } from '../support/postgres';
import { SCREENSHOTS } from './harness';

interface VirtualAuthenticator {
  cdp: CDPSession;
  authenticatorId: string;
}

interface WebAuthnCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
}

/** CDP names a credential in base64; WebAuthn (and the hub) in base64url. */
const toBase64Url = (b64: string): string => Buffer.from(b64, 'base64').toString('base64url');

/** Chromium's virtual authenticator on the page: a platform passkey that verifies its user. */
async function addAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function credentials(a: VirtualAuthenticator): Promise<WebAuthnCredential[]> {
  const r = (await a.cdp.send('WebAuthn.getCredentials', {
    authenticatorId: a.authenticatorId,
  })) as { credentials: WebAuthnCredential[] };
  return r.credentials;
}

/**
 * Passkeys on a real hub with Chromium's virtual authenticator (CDP WebAuthn): the hub bound to
 * 127.0.0.1 with the public URL http://localhost:PORT (a secure context; RP ID `localhost`), the
 * browser at that URL. An admin registers a passkey, signs out, signs in with it; an admin who
 * signs in with a link is refused admin actions until confirmed with the passkey; a captured
 * assertion sent again, an assertion with another origin, RP ID or no user verification, a
 * registration made for another person's session, and an authenticator whose counter went
 * back (a clone) are all refused, the clone audited.
 */
describe('passkeys on the hub: a real browser with a virtual authenticator', () => {
  let pg: TestPostgres;
  let db: SqlDatabase;
  let hub: TestHub;
  let browser: Browser;
  let origin: string;
  const pages: WatchedPage[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    pg = await TestPostgres.start();
    const url = pg.createDatabase('passkeys');
    const port = await freePort();
    origin = `http://localhost:${port}`;
    hub = await TestHub.start({ databaseUrl: url, port, args: ['--public-url', origin] });
    db = await openHubDatabase({ url, dataDir: '' });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    for (const p of pages) await p.context.close().catch(() => undefined);
    await browser?.close();
    await db?.close();
    await hub?.stop();
    pg?.stop();
  });

  /** A fresh browser context with its own authenticator, on the hub's public origin. */
  async function newBrowser(): Promise<WatchedPage & { authenticator: VirtualAuthenticator }> {
    const watched = await openPage(browser);
    pages.push(watched);
    return { ...watched, authenticator: await addAuthenticator(watched.page) };
  }

  /** Opens a sign-in link (printed by the hub host for 127.0.0.1) on the public origin. */
  async function openLink(page: Page, link: string): Promise<void> {
    // From elsewhere: a link opened on the page it would land on only changes the fragment.
    await page.goto('about:blank');
    await page.goto(`${origin}/${new URL(link).hash}`);
    await page.getByTestId('hub-app').waitFor();
  }

  async function signOut(page: Page): Promise<void> {
    await page.getByTestId('hub-sign-out').click();
    await page.getByTestId('hub-signed-out').waitFor();
  }

  /** The next POST to `path` the page makes, captured and not delivered (the hub never sees it). */
  async function captureNext(page: Page, path: string, act: () => Promise<void>): Promise<string> {
    let body = '';
    await page.route(`**${path}`, async (route) => {
      body = route.request().postData() ?? '';
      await route.abort();
    });
    await act();
    await expect.poll(() => body.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.unroute(`**${path}`);
    return body;
  }

  /** A POST by plain HTTP to the hub (or another replica), as a browser on its origin sends it. */
  async function post(
    path: string,
    body: string,
    o: { cookie?: string; csrf?: string; to?: TestHub } = {},
  ): Promise<{ status: number; body: { error?: string }; setCookie: string | null }> {
    const to = o.to ?? hub;
    const res = await fetch(new URL(path, to.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: new URL(to.url).origin,
        'sec-fetch-site': 'same-origin',
        ...(o.cookie ? { cookie: o.cookie } : {}),
        ...(o.csrf ? { 'x-gatehouse-csrf': o.csrf } : {}),
      },
      body,
    });
    return {
      status: res.status,
      body: (await res.json()) as { error?: string },
      setCookie: res.headers.get('set-cookie'),
    };
  }

  /** The page's session cookie and CSRF token, for calls made by plain HTTP. */
  async function sessionOf(page: Page): Promise<{ cookie: string; csrf: string }> {
    const c = (await page.context().cookies()).find((k) => k.name === 'gatehouse_hub_session');
    const cookie = `gatehouse_hub_session=${c!.value}`;
    const me = await post('/web/api/me', '{}', { cookie });
    return { cookie, csrf: (me.body as { result: { csrf: string } }).result.csrf };
  }

  it('an admin registers a passkey, signs out, and signs in with it; admin actions wait for it', async () => {
    const { page, problems, authenticator } = await newBrowser();
    await openLink(page, await hub.signInLink('root', 'admin'));
    // Signed in with a link and no passkey yet: asked to add one, admin actions refused.
    await expect
      .poll(() => page.getByTestId('hub-second-factor').getAttribute('data-need'))
      .toBe('register');
    await page.screenshot({ path: join(SCREENSHOTS, 'hub-passkey-required.png') });
    expect(await postFromPage(page, '/web/api/people.list')).toEqual({
      status: 403,
      error: 'passkey required: add a passkey before an admin action',
    });
    await page.getByTestId('hub-second-factor-go').click();
    await page.getByTestId('hub-second-factor').waitFor({ state: 'detached' });
    expect(await credentials(authenticator)).toHaveLength(1);
    expect((await postFromPage(page, '/web/api/people.list')).status).toBe(200);
    await page.getByTestId('hub-nav-passkeys').click();
    await expect.poll(() => page.getByTestId('hub-passkey').count()).toBe(1);
    await page.screenshot({ path: join(SCREENSHOTS, 'hub-passkeys.png') });

    // Signed out, then in with the passkey alone: the same session cookie, admin at once.
    await signOut(page);
    await page.getByTestId('hub-passkey-sign-in-go').click();
    await page.getByTestId('hub-app').waitFor();
    expect(await page.getByTestId('hub-person').textContent()).toBe('root (admin)');
    expect(await page.getByTestId('hub-second-factor').count()).toBe(0);
    expect((await postFromPage(page, '/web/api/machines.list')).status).toBe(200);
    const audit = await queryAudit(db, { type: 'person.signed_in' });
    expect(audit[0]).toMatchObject({ actor: 'root', data: { via: 'passkey' } });

    // A new link for the same admin: the session must be confirmed with the passkey first.
    await signOut(page);
    const again = await hub.cli(['user', 'link', 'root']);
    expect(again.code).toBe(0);
    await openLink(page, again.stdout.split('\n')[1]!.trim());
    await expect
      .poll(() => page.getByTestId('hub-second-factor').getAttribute('data-need'))
      .toBe('confirm');
    expect(await postFromPage(page, '/web/api/people.list')).toEqual({
      status: 403,
      error: 'passkey required: confirm with your passkey before an admin action',
    });
    // Nor can that session add a passkey of its own or remove the admin's.
    const unconfirmed = await sessionOf(page);
    expect((await post('/web/passkey/register-options', '{}', unconfirmed)).status).toBe(403);
    const id = toBase64Url((await credentials(authenticator))[0]!.credentialId);
    const strip = await post('/web/passkey/remove', JSON.stringify({ id }), unconfirmed);
    expect(strip.status).toBe(403);
    expect(strip.body.error).toMatch(/^passkey required/);
    await page.getByTestId('hub-second-factor-go').click();
    await page.getByTestId('hub-second-factor').waitFor({ state: 'detached' });
    expect((await postFromPage(page, '/web/api/people.list')).status).toBe(200);
    // The refusals above, and the signed-out page asking who is there (a call still under way
    // when the session ended, such as the live view's reload or the passkey status, answers
    // 401 too): nothing else failed.
    expect(
      problems.filter(
        (p) =>
          !/ (403 \S+people\.list|401 \S+\/web\/(api\/(me|requests\.list)|passkey\/status))$/.test(
            p,
          ),
      ),
    ).toEqual([]);
  });

  it('a captured assertion sent twice is refused the second time', async () => {
    const { page } = await newBrowser();
    await openLink(page, await hub.signInLink('ann', 'approver'));
    await page.getByTestId('hub-nav-passkeys').click();
    await page.getByTestId('hub-passkey-add').click();
    await expect.poll(() => page.getByTestId('hub-passkey').count()).toBe(1);
    await signOut(page);

    // The page's sign-in assertion, watched on its way and delivered once by the page.
    let captured = '';
    await page.route('**/web/passkey/sign-in', async (route) => {
      captured = route.request().postData() ?? '';
      await route.continue();
    });
    await page.getByTestId('hub-passkey-sign-in-go').click();
    await page.getByTestId('hub-app').waitFor();
    await page.unroute('**/web/passkey/sign-in');
    const replay = await post('/web/passkey/sign-in', captured);
    expect(replay.status).toBe(401);
    expect(replay.body.error).toMatch(/challenge is unknown, already used/);
  });

  it('a challenge one replica handed out is spent on another, once', async () => {
    // A second replica of the same hub, behind the same public URL (as behind a balancer).
    const other = await TestHub.start({
      databaseUrl: pg.url('passkeys'),
      sameHubAs: hub,
      args: ['--public-url', origin],
    });
    try {
      const { page } = await newBrowser();
      await openLink(page, await hub.signInLink('rita', 'approver'));
      await page.getByTestId('hub-nav-passkeys').click();
      await page.getByTestId('hub-passkey-add').click();
      await expect.poll(() => page.getByTestId('hub-passkey').count()).toBe(1);
      await signOut(page);
      const assertion = await captureNext(page, '/web/passkey/sign-in', () =>
        page.getByTestId('hub-passkey-sign-in-go').click(),
      );
      const there = await post('/web/passkey/sign-in', assertion, { to: other });
      expect(there.status).toBe(200);
      expect(there.setCookie).toMatch(/^gatehouse_hub_session=[\w-]{43}; /);
      const back = await post('/web/passkey/sign-in', assertion);
      expect(back.status).toBe(401);
      expect(back.body.error).toMatch(/already used/);
    } finally {
      await other.stop();
    }
  });

  it('an assertion for another origin, another RP ID or without user verification is refused', async () => {
    const { page } = await newBrowser();
    await openLink(page, await hub.signInLink('otto', 'approver'));
    await page.getByTestId('hub-nav-passkeys').click();
    await page.getByTestId('hub-passkey-add').click();
    await expect.poll(() => page.getByTestId('hub-passkey').count()).toBe(1);
    await signOut(page);
    const signInOnce = () => page.getByTestId('hub-passkey-sign-in-go').click();

    type Assertion = { response: { clientDataJSON: string; authenticatorData: string } };
    const tampered = async (change: (a: Assertion) => void) => {
      const a = JSON.parse(await captureNext(page, '/web/passkey/sign-in', signInOnce));
      change(a as Assertion);
      return post('/web/passkey/sign-in', JSON.stringify(a));
    };
    const b64 = (s: string) => Buffer.from(s, 'base64url');

    const otherOrigin = await tampered((a) => {
      const client = JSON.parse(b64(a.response.clientDataJSON).toString()) as { origin: string };
      client.origin = 'http://localhost.evil.test';
      a.response.clientDataJSON = Buffer.from(JSON.stringify(client)).toString('base64url');
    });
    expect(otherOrigin.status).toBe(401);
    expect(otherOrigin.body.error).toMatch(/origin "http:\/\/localhost.evil.test"/);

    const otherRp = await tampered((a) => {
      const data = b64(a.response.authenticatorData);
      data.fill(7, 0, 32); // the RP ID's hash
      a.response.authenticatorData = data.toString('base64url');
    });
    expect(otherRp.status).toBe(401);
    expect(otherRp.body.error).toMatch(/RP ID/);

    const unverified = await tampered((a) => {
      const data = b64(a.response.authenticatorData);
      data[32] = data[32]! & ~0x04; // the UV flag
      a.response.authenticatorData = data.toString('base64url');
    });
    expect(unverified.status).toBe(401);
    expect(unverified.body.error).toMatch(/User verification required/);
  });

  it("a registration made for one person's session cannot land on another's account", async () => {
    const bob = await newBrowser();
    await openLink(bob.page, await hub.signInLink('bob', 'approver'));
    await bob.page.getByTestId('hub-nav-passkeys').click();
    const made = await captureNext(bob.page, '/web/passkey/register', () =>
      bob.page.getByTestId('hub-passkey-add').click(),
    );
    const eve = await newBrowser();
    await openLink(eve.page, await hub.signInLink('eve', 'approver'));
    const eveSession = await sessionOf(eve.page);
    const landed = await post('/web/passkey/register', made, eveSession);
    expect(landed.status).toBe(401);
    expect(landed.body.error).toMatch(/not for this session/);
    const status = await post('/web/passkey/status', '{}', eveSession);
    expect(status.body).toMatchObject({ passkeys: [] });
  });

  it('an authenticator whose counter went back (a clone) is refused and audited', async () => {
    const { page, authenticator } = await newBrowser();
    await openLink(page, await hub.signInLink('cleo', 'approver'));
    await page.getByTestId('hub-nav-passkeys').click();
    await page.getByTestId('hub-passkey-add').click();
    await expect.poll(() => page.getByTestId('hub-passkey').count()).toBe(1);
    for (let i = 0; i < 2; i++) {
      await signOut(page);
      await page.getByTestId('hub-passkey-sign-in-go').click();
      await page.getByTestId('hub-app').waitFor();
    }
    const [original] = await credentials(authenticator);
    expect(original!.signCount).toBeGreaterThanOrEqual(2);
    // The same key with its counter back at zero: what a copy made earlier would sign.
    await authenticator.cdp.send('WebAuthn.removeCredential', {
      authenticatorId: authenticator.authenticatorId,
      credentialId: original!.credentialId,
    });
    await authenticator.cdp.send('WebAuthn.addCredential', {
      authenticatorId: authenticator.authenticatorId,
      credential: { ...original!, signCount: 0 },
    });
    await signOut(page);
    await page.getByTestId('hub-passkey-sign-in-go').click();
    await expect
      .poll(() => page.getByTestId('hub-passkey-sign-in-error').textContent())
      .toMatch(/old counter/);
    expect(await page.getByTestId('hub-app').count()).toBe(0);
    const [regressed] = await queryAudit(db, { type: 'person.passkey_counter_regressed' });
    expect(regressed).toMatchObject({
      actor: 'cleo',
      data: {
        credential: toBase64Url(original!.credentialId),
        stored: original!.signCount,
        presented: 1,
      },
    });
  });

  it("an admin's last passkey is removed only from a confirmed session", async () => {
    const { page, authenticator } = await newBrowser();
    await openLink(page, await hub.signInLink('dora', 'admin'));
    await page.getByTestId('hub-second-factor-go').click();
    await page.getByTestId('hub-second-factor').waitFor({ state: 'detached' });
    const [credential] = await credentials(authenticator);
    await signOut(page);
    const link = await hub.cli(['user', 'link', 'dora']);
    await openLink(page, link.stdout.split('\n')[1]!.trim());
    await page.getByTestId('hub-nav-passkeys').click();
    await page.getByTestId('hub-passkey-remove').click();
    await expect.poll(() => page.getByTestId('notices').textContent()).toMatch(/passkey required/);
    expect(await page.getByTestId('hub-passkey').count()).toBe(1);
    await page.getByTestId('hub-second-factor-go').click();
    await page.getByTestId('hub-second-factor').waitFor({ state: 'detached' });
    await page.getByTestId('hub-passkey-remove').click();
    await page.getByTestId('hub-passkeys-none').waitFor();
    const removed = await queryAudit(db, { type: 'person.passkey_removed' });
    expect(removed[0]).toMatchObject({
      actor: 'dora',
      data: { credential: toBase64Url(credential!.credentialId) },
    });
  });

  it('an admin who lost their passkey is reset by the hub admin, signed out, and adds one again', async () => {
    const { page, authenticator } = await newBrowser();
    await openLink(page, await hub.signInLink('ida', 'admin'));
    await page.getByTestId('hub-second-factor-go').click();
    await page.getByTestId('hub-second-factor').waitFor({ state: 'detached' });
    const session = await sessionOf(page);
    const reset = await hub.cli(['user', 'reset-passkeys', 'ida']);
    expect(reset.stdout).toContain('Removed 1 passkey(s) of ida and ended 1 browser session(s).');
    // The session is gone, and the old passkey (still in this authenticator) signs nobody in.
    expect((await post('/web/passkey/status', '{}', session)).status).toBe(401);
    expect(await credentials(authenticator)).toHaveLength(1);
    await page.reload();
    await page.getByTestId('hub-passkey-sign-in-go').click();
    await expect
      .poll(() => page.getByTestId('hub-passkey-sign-in-error').textContent())
      .toMatch(/not registered on the hub/);
    // A new link: the admin is asked to add a passkey, as the first admin is.
    const link = await hub.cli(['user', 'link', 'ida']);
    await openLink(page, link.stdout.split('\n')[1]!.trim());
    await expect
      .poll(() => page.getByTestId('hub-second-factor').getAttribute('data-need'))
      .toBe('register');
    expect((await queryAudit(db, { type: 'person.passkeys_reset' }))[0]).toMatchObject({
      data: { name: 'ida', removed: 1, sessionsEnded: 1 },
    });
  });
});
