import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type WatchedPage } from '../support/browser';
import { TestHub } from '../support/hub';
import { openSignedIn } from '../support/hub-page';
import { postFromPage } from '../support/hub-page-calls';
import { startWebhookReceiver } from '../support/notify-receivers';

/**
 * "My notifications" on the team dashboard, in chromium against a real hub: an approver sees
 * the channels the admin turned on (webhook and ntfy, not email), is refused a webhook the
 * allow-list does not name, saves one it names with desktop notices and a reminder, and finds
 * them again after a reload; a viewer has no such page and the hub refuses the call; a call
 * without the session's CSRF token is refused.
 */
describe('the team dashboard page for one’s own channel', () => {
  let hub: TestHub;
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const pages: WatchedPage[] = [];

  beforeAll(async () => {
    hub = await TestHub.start();
    receiver = await startWebhookReceiver('ann-key');
    const admin = readFileSync(hub.adminTokenFile, 'utf8').trim();
    const configured = await hub.api('POST', '/api/admin/notify', {
      token: admin,
      body: {
        webhook: { enabled: true, url: 'https://team.example/hook' },
        ntfy: { enabled: true, server: 'https://ntfy.example', topic: 'team' },
        email: { enabled: false },
      },
    });
    expect(configured.status).toBe(200);
    const allowed = await hub.cli(['webhook-allow', 'add', new URL(receiver.url).origin]);
    expect(allowed.code, allowed.stderr).toBe(0);
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    for (const p of pages) await p.context.close().catch(() => undefined);
    await browser?.close();
    await receiver?.close();
    await hub?.stop();
  });

  const signedIn = async (name: string, role: string) =>
    openSignedIn(browser, await hub.signInLink(name, role), pages);

  it('an approver sets a webhook the allow-list names, with desktop notices and a reminder', async () => {
    const { page, problems } = await signedIn('ann', 'approver');
    await page.getByTestId('hub-nav-notify').click();
    const kind = page.getByTestId('hub-notify-kind');
    await kind.waitFor();
    expect(
      await kind.locator('option').evaluateAll((os) => os.map((o) => o.getAttribute('value'))),
    ).toEqual(['none', 'ntfy', 'webhook']);

    await kind.selectOption('webhook');
    await page.getByTestId('hub-notify-webhook').fill('http://127.0.0.1:9/elsewhere');
    await page.getByTestId('hub-notify-save').click();
    await expect
      .poll(() => page.getByTestId('hub-notify-error').textContent())
      .toContain("127.0.0.1:9 is not on the hub's webhook allow-list");

    await page.getByTestId('hub-notify-webhook').fill(receiver.url);
    await page.getByTestId('hub-notify-webhook-secret').fill('ann-key');
    await page.getByTestId('hub-notify-desktop').check();
    await page.getByTestId('hub-notify-remind').fill('15');
    await page.getByTestId('hub-notify-save').click();
    await expect.poll(() => page.getByTestId('hub-notify-error').count()).toBe(0);
    await page.getByText('Saved: the hub tells you this way from now on.').waitFor();

    // Kept by the hub: a reload shows it, and the person's own API reads the same.
    await page.reload();
    await page.getByTestId('hub-nav-notify').click();
    await expect.poll(() => page.getByTestId('hub-notify-webhook').inputValue()).toBe(receiver.url);
    expect(await page.getByTestId('hub-notify-desktop').isChecked()).toBe(true);
    expect(await page.getByTestId('hub-notify-new').isChecked()).toBe(true);
    expect(await page.getByTestId('hub-notify-remind').inputValue()).toBe('15');
    const read = await postFromPage(page, '/web/api/notify.get');
    expect(read.status).toBe(200);

    // Without the session's CSRF token, nothing is set.
    const forged = await postFromPage(
      page,
      '/web/api/notify.set',
      { channel: { kind: 'webhook', url: 'http://169.254.169.254/', secret: '' } },
      { csrf: false },
    );
    expect(forged).toMatchObject({ status: 403 });
    expect(forged.error).toContain('CSRF');
    // The page's only failed loads are the two refusals above.
    expect(problems.map((p) => p.replace(/http:\/\/[^/]+/, ''))).toEqual([
      'response: 400 /web/api/notify.set',
      'response: 403 /web/api/notify.set',
    ]);
  });

  it('a viewer has no such page, and the hub refuses their call', async () => {
    const { page } = await signedIn('vic', 'viewer');
    expect(await page.getByTestId('hub-nav-notify').count()).toBe(0);
    const refused = await postFromPage(page, '/web/api/notify.set', { desktop: true });
    expect(refused).toMatchObject({ status: 403 });
    expect(refused.error).toContain('notify.set needs an approver');
  });
});
