import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, type WatchedPage } from '../support/browser';
import { TestHub } from '../support/hub';
import { TestOidcProvider } from '../support/oidc-provider';
import { SCREENSHOTS } from './harness';

/**
 * Single sign-on in chromium: the hub's signed-out page shows "Sign in with <provider>", the
 * button goes to a real OpenID provider (oidc-provider, run by the test) and back, and the
 * browser lands on the team dashboard signed in, with the session cookie a sign-in link gives.
 */
describe('signing in to the team dashboard with single sign-on, in a real browser', () => {
  let hub: TestHub;
  let idp: TestOidcProvider;
  let browser: Browser;
  const pages: WatchedPage[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    hub = await TestHub.start();
    idp = await TestOidcProvider.start({
      clients: [
        {
          clientId: 'gatehouse-hub',
          clientSecret: 'e2e-client-secret-0123456789abcdef',
          redirectUris: [`${hub.url}/auth/oidc/callback`],
        },
      ],
      accounts: [
        {
          sub: 'alice-sub',
          email: 'alice@example.com',
          emailVerified: true,
          preferredUsername: 'alice',
          groups: ['ops'],
        },
      ],
    });
    const secretFile = join(hub.dir, 'client-secret');
    writeFileSync(secretFile, 'e2e-client-secret-0123456789abcdef\n', { mode: 0o600 });
    const set = await hub.cli([
      'sso',
      'set',
      '--issuer',
      idp.issuer,
      '--client-id',
      'gatehouse-hub',
      '--client-secret-file',
      secretFile,
      '--provider-name',
      'Test IdP',
      '--scopes',
      'openid email profile groups',
      '--new-people',
      'approver',
    ]);
    if (set.code !== 0) throw new Error(`sso set failed: ${set.stderr}`);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    for (const p of pages) await p.context.close().catch(() => undefined);
    await browser?.close();
    await idp?.stop();
    await hub?.stop();
  });

  it('"Sign in with Test IdP" goes to the provider and back to the dashboard, signed in', async () => {
    const watched = await openPage(browser);
    pages.push(watched);
    const { page, context, problems } = watched;
    await page.goto(`${hub.url}/`);
    const button = page.getByTestId('hub-sso-sign-in');
    await button.waitFor();
    expect(await button.textContent()).toBe('Sign in with Test IdP');
    await page.screenshot({ path: join(SCREENSHOTS, 'hub-sso-signed-out.png') });

    idp.signInAs('alice-sub');
    await button.click();
    await page.getByTestId('hub-app').waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).origin).toBe(new URL(hub.url).origin);
    expect(await page.getByTestId('hub-person').textContent()).toBe('alice (approver)');
    const cookies = await context.cookies(hub.url);
    const session = cookies.find((c) => c.name === 'gatehouse_hub_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    // The binding cookie was spent and cleared.
    expect(cookies.find((c) => c.name === 'gatehouse_hub_oidc')).toBeUndefined();
    // The signed-out page's `me` answered 401 before the sign-in, as it does for any visitor.
    expect(problems.filter((p) => !/^response: 401 .*\/web\/api\/me$/.test(p))).toEqual([]);

    await page.getByTestId('hub-sign-out').click();
    await page.getByTestId('hub-sso-sign-in').waitFor();
  });

  it('shows no single sign-on button while it is off', async () => {
    expect((await hub.cli(['sso', 'off'])).code).toBe(0);
    const watched = await openPage(browser);
    pages.push(watched);
    // The page asks the hub (GET /api/sso) before deciding to show nothing.
    const asked = watched.page.waitForResponse((r) => r.url().endsWith('/api/sso'));
    await watched.page.goto(`${hub.url}/`);
    await watched.page.getByTestId('hub-signed-out').waitFor();
    expect(await (await asked).json()).toEqual({ enabled: false });
    expect(await watched.page.getByTestId('hub-sso-sign-in').count()).toBe(0);
  });
});
