import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '../support/browser';
import { startNtfyServer } from '../support/ntfy-server';
import { join } from 'node:path';
import { dashboardForFile, SCREENSHOTS } from './harness';

const ctx = dashboardForFile();
let ntfy: Awaited<ReturnType<typeof startNtfyServer>>;

beforeAll(async () => {
  ntfy = await startNtfyServer();
});
afterAll(async () => {
  await ntfy?.close();
});

describe('dashboard: notification channel health and the ntfy QR code', () => {
  it('shows each channel working or failing, and the ntfy subscribe URL as a QR code', async () => {
    const admin = await ctx.daemon.admin();
    for (const [key, value] of [
      ['notifications.channels.ntfy.server', ntfy.url],
      ['notifications.channels.ntfy.topic', 'gh-dashboard-alerts'],
      ['notifications.channels.ntfy.enabled', true],
      // Nothing listens there: the webhook fails at once (connection refused) and says so.
      ['notifications.channels.webhook.url', 'http://127.0.0.1:9/hook'],
      ['notifications.channels.webhook.maxAttempts', 1],
      ['notifications.channels.webhook.enabled', true],
    ] as const)
      await admin.call('settings.set', { key, value });
    const agent = await ctx.daemon.agent('health-bot');
    await agent.request({ action: 'deploy', description: 'deploy', urgency: 'high', wait: false });
    await ntfy.until(() => ntfy.messages.some((m) => m.topic === 'gh-dashboard-alerts'));

    const { context, page } = await openPage(ctx.browser);
    try {
      await page.goto(`${ctx.daemon.url}&view=settings`);
      const panel = page.getByTestId('channel-health');
      await panel.waitFor();
      await page.getByTestId('channel-ntfy').filter({ hasText: 'working' }).waitFor();
      await page.getByTestId('channel-webhook').filter({ hasText: 'failing' }).waitFor();
      expect(await page.getByTestId('channel-sms').innerText()).toContain('off');
      // The subscribe URL and its QR code come with the settings, which may load after the
      // channels' health: waited for, not read at once.
      const qr = page.getByTestId('ntfy-qr');
      await qr.waitFor();
      expect(await panel.innerText()).toContain(`${ntfy.url}/gh-dashboard-alerts`);
      expect(await qr.getAttribute('aria-label')).toBe(
        `QR code of ${ntfy.url}/gh-dashboard-alerts`,
      );
      expect(await qr.locator('rect').count()).toBeGreaterThan(100);
    } finally {
      await context.close();
    }
  });

  it('"Generate topic" makes a new random topic in the daemon and shows it; "Send test notification" sends one that arrives', async () => {
    const { context, page } = await openPage(ctx.browser);
    try {
      await page.goto(`${ctx.daemon.url}&view=settings`);
      const setup = page.getByTestId('ntfy-setup');
      await setup.waitFor();
      await page.getByTestId('ntfy-server').fill(ntfy.url);
      await page.getByTestId('ntfy-generate').click();
      const made = page.getByTestId('ntfy-outcome').filter({ hasText: 'New topic made' });
      await made.waitFor();
      const url = new RegExp(`(${ntfy.url.replace(/[.]/g, '\\.')}/gatehouse-[A-Za-z0-9]{20})`).exec(
        await made.innerText(),
      )?.[1];
      expect(url).toBeDefined();
      const topic = url!.slice(ntfy.url.length + 1);
      // The QR code follows the new topic; the old one is gone from the page.
      await page.locator(`[data-testid="ntfy-qr"][aria-label="QR code of ${url}"]`).waitFor();
      expect(await page.getByTestId('channel-health').innerText()).not.toContain(
        'gh-dashboard-alerts',
      );
      // Saved by the daemon, with a reply topic for the Approve / Deny buttons.
      const admin = await ctx.daemon.admin();
      const { value } = await admin.call('settings.get', { key: 'notifications.channels.ntfy' });
      expect(value).toMatchObject({ enabled: true, server: ntfy.url, topic });
      expect((value as { replyTopic: string }).replyTopic).toMatch(/^gatehouse-reply-/);

      await page.getByTestId('ntfy-test').click();
      await page
        .getByTestId('ntfy-outcome')
        .filter({ hasText: 'Test notification sent' })
        .waitFor();
      await ntfy.until(() => ntfy.messages.some((m) => m.topic === topic));
      expect(ntfy.messages.filter((m) => m.topic === topic).map((m) => m.title)).toEqual([
        'Gatehouse is connected',
      ]);
      await page.getByTestId('channel-ntfy').filter({ hasText: 'working' }).waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'ntfy-setup-buttons.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it('shows why a test notification was not delivered', async () => {
    const guarded = await startNtfyServer({ token: 'only-the-owner' });
    const { context, page } = await openPage(ctx.browser);
    try {
      await page.goto(`${ctx.daemon.url}&view=settings`);
      await page.getByTestId('ntfy-setup').waitFor();
      await page.getByTestId('ntfy-server').fill(guarded.url);
      await page.getByTestId('ntfy-generate').click();
      await page.getByTestId('ntfy-outcome').filter({ hasText: guarded.url }).waitFor();
      await page.getByTestId('ntfy-test').click();
      await page
        .getByTestId('ntfy-outcome')
        .filter({ hasText: 'not delivered: ntfy answered HTTP 403' })
        .waitFor();
      await page.getByTestId('channel-ntfy').filter({ hasText: 'failing' }).waitFor();
      expect(guarded.messages).toHaveLength(0);
    } finally {
      await context.close();
      await guarded.close();
    }
  });
});
