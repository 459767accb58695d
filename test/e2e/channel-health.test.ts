import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '../support/browser';
import { startNtfyServer } from '../support/ntfy-server';
import { dashboardForFile } from './harness';

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
      expect(await panel.innerText()).toContain(`${ntfy.url}/gh-dashboard-alerts`);
      const qr = page.getByTestId('ntfy-qr');
      expect(await qr.getAttribute('aria-label')).toBe(
        `QR code of ${ntfy.url}/gh-dashboard-alerts`,
      );
      expect(await qr.locator('rect').count()).toBeGreaterThan(100);
    } finally {
      await context.close();
    }
  });
});
