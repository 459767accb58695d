import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '../support/browser';
import { DiscordServer } from '../support/discord-server';
import { SlackServer } from '../support/slack-server';
import { dashboardForFile } from './harness';

const ctx = dashboardForFile();
const TOKEN = 'MTIz.dashboard.discord-bot-token';
const CHANNEL = '1100000000000000042';
const ADA = { id: '2200000000000000001', username: 'ada' };
const SLACK_BOT_TOKEN = 'xoxb-dashboard-test';
const SLACK_APP_TOKEN = 'xapp-dashboard-test';
const SLACK_ADA = { id: 'U0ADA', username: 'ada' };
let discord: DiscordServer;
let slack: SlackServer;

beforeAll(async () => {
  discord = new DiscordServer(TOKEN, CHANNEL);
  await discord.listen();
  slack = new SlackServer(SLACK_BOT_TOKEN, SLACK_APP_TOKEN);
  await slack.listen();
});
afterAll(async () => {
  await discord?.close();
  await slack?.close();
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
  it('shows that Slack presses come back, and "Send test message" posts one whose button answers only an allowed person', async () => {
    const admin = await ctx.daemon.admin();
    for (const [key, value] of [
      ['notifications.channels.slack.apiBase', slack.apiBase],
      ['notifications.channels.slack.botToken', SLACK_BOT_TOKEN],
      ['notifications.channels.slack.appToken', SLACK_APP_TOKEN],
      ['notifications.channels.slack.channel', 'C0DASH'],
      ['notifications.channels.slack.allowedUserIds', [SLACK_ADA.id]],
      ['notifications.channels.slack.enabled', true],
    ] as const)
      await admin.call('settings.set', { key, value });
    await slack.until(() => slack.connected);

    const { context, page } = await openPage(ctx.browser);
    try {
      await page.goto(`${ctx.daemon.url}&view=settings`);
      const row = page.getByTestId('channel-slack');
      await row.filter({ hasText: 'presses come back' }).waitFor();
      const before = slack.messages.length;
      await page.getByTestId('chat-test-slack').click();
      await page
        .getByTestId('chat-test-slack-outcome')
        .filter({ hasText: 'Test message sent' })
        .waitFor();
      await slack.until(() => slack.messages.length > before);
      const test = slack.messages.at(-1)!;
      expect(test.channel).toBe('C0DASH');
      const b = test.blocks.find((x) => x.type === 'actions')!.elements![0]!;
      slack.press(SLACK_ADA, test, { action_id: b.action_id!, value: b.value! });
      await slack.until(() => slack.ephemerals.some((e) => e.user === SLACK_ADA.id));
      expect(slack.ephemerals.find((e) => e.user === SLACK_ADA.id)?.text).toMatch(/Buttons work/);
      const mallory = { id: 'U0MALLORY', username: 'mallory' };
      slack.press(mallory, test, { action_id: b.action_id!, value: b.value! });
      await slack.until(() => slack.ephemerals.some((e) => e.user === mallory.id));
      expect(slack.ephemerals.find((e) => e.user === mallory.id)?.text).toMatch(/not allowed/);
    } finally {
      await context.close();
    }
  });
});
