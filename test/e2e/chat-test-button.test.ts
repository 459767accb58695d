import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '../support/browser';
import { DiscordServer } from '../support/discord-server';
import { dashboardForFile } from './harness';

const ctx = dashboardForFile();
const TOKEN = 'MTIz.dashboard.discord-bot-token';
const CHANNEL = '1100000000000000042';
const ADA = { id: '2200000000000000001', username: 'ada' };
let discord: DiscordServer;

beforeAll(async () => {
  discord = new DiscordServer(TOKEN, CHANNEL);
  await discord.listen();
});
afterAll(async () => {
  await discord?.close();
});

describe("dashboard: a chat app's health and its test message", () => {
  it('shows that Discord presses come back, and "Send test message" posts one whose button answers', async () => {
    const admin = await ctx.daemon.admin();
    for (const [key, value] of [
      ['notifications.channels.discord.apiBase', discord.apiBase],
      ['notifications.channels.discord.botToken', TOKEN],
      ['notifications.channels.discord.channelId', CHANNEL],
      ['notifications.channels.discord.allowedUserIds', [ADA.id]],
      ['notifications.channels.discord.enabled', true],
    ] as const)
      await admin.call('settings.set', { key, value });
    await discord.until(() => discord.count('identify') === 1);

    const { context, page } = await openPage(ctx.browser);
    try {
      await page.goto(`${ctx.daemon.url}&view=settings`);
      const row = page.getByTestId('channel-discord');
      await row.filter({ hasText: 'presses come back' }).waitFor();
      await page.getByTestId('chat-test-discord').click();
      await page
        .getByTestId('chat-test-discord-outcome')
        .filter({ hasText: 'Test message sent' })
        .waitFor();
      await row.filter({ hasText: 'working' }).waitFor();
      const test = discord.messages.at(-1)!;
      expect(test.channel_id).toBe(CHANNEL);
      const id = test.components[0]?.components[0]?.custom_id ?? '';
      const press = discord.press(ADA, test, id);
      await discord.until(() => discord.answers.has(press));
      expect(discord.answers.get(press)?.data.content).toMatch(/Buttons work/);

      // A wrong token: the test says why, and the channel shows failing.
      await admin.call('settings.set', {
        key: 'notifications.channels.discord.botToken',
        value: 'revoked',
      });
      await page.getByTestId('chat-test-discord').click();
      await page
        .getByTestId('chat-test-discord-outcome')
        .filter({ hasText: /not delivered: .*401/ })
        .waitFor();
      await row.filter({ hasText: 'failing' }).waitFor();
    } finally {
      await context.close();
    }
  });
});
