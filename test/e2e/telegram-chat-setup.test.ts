import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '../support/browser';
import { TelegramServer } from '../support/telegram-server';
import { dashboardForFile } from './harness';

const ctx = dashboardForFile();
const TOKEN = '424242:dashboard-telegram-token';
const ADA = { id: 9001, first_name: 'Ada', username: 'ada' };
// A name is the writer's own text: shown as text, never markup.
const MALLORY = { id: 666, first_name: '<img src=x onerror="window.pwned=1">', username: 'mal' };
let telegram: TelegramServer;

beforeAll(async () => {
  telegram = new TelegramServer(TOKEN);
  await telegram.listen();
});
afterAll(() => telegram?.close());

describe('dashboard: Telegram set-up finds the chat from /start', () => {
  it('lists the chats that wrote to the bot, saves the chosen one and its writer, and the poll then decides their presses', async () => {
    const admin = await ctx.daemon.admin();
    await admin.call('settings.set', {
      key: 'notifications.channels.telegram.apiBase',
      value: telegram.url,
    });
    await admin.call('settings.set', {
      key: 'notifications.channels.telegram.botToken',
      value: TOKEN,
    });
    // Someone else wrote first; a chat never seen cannot be chosen by guessing its id.
    telegram.say(MALLORY, 'hello');
    await expect(
      admin.call('chat.telegramUse', { chatId: '9001', userId: '9001' }),
    ).rejects.toThrow(/has not written to the bot/);

    const { context, page } = await openPage(ctx.browser);
    try {
      await page.goto(`${ctx.daemon.url}&view=settings`);
      await page.getByTestId('telegram-find-chat').click();
      await page.getByText('Send /start to your bot').waitFor();
      await telegram.until(() => telegram.calls.includes('getUpdates'));
      telegram.say(ADA, '/start');
      const ada = page.getByTestId('telegram-chat-9001');
      await ada.filter({ hasText: 'Ada @ada (chat 9001) sent /start' }).waitFor();
      const mallory = page.getByTestId('telegram-chat-666');
      expect(await mallory.textContent()).toContain('<img src=x onerror="window.pwned=1">');
      expect(await page.evaluate('window.pwned')).toBeUndefined();
      // The look never confirmed an update: the daemon's poll still gets them later.
      expect(telegram.calls.filter((c) => c === 'getUpdates').length).toBeGreaterThan(0);

      await ada.getByRole('button', { name: 'Use this chat' }).click();
      await page
        .getByTestId('telegram-chat-chosen')
        .filter({ hasText: 'Requests go to chat 9001; Ada @ada may decide.' })
        .waitFor();
      const { value } = await admin.call('settings.get', {
        key: 'notifications.channels.telegram',
      });
      expect(value).toMatchObject({ chatId: '9001', allowedUserIds: ['9001'], enabled: true });
      // Mallory, seen but not chosen, may not decide.
      expect((value as { allowedUserIds: string[] }).allowedUserIds).not.toContain('666');

      // The channel is on: its test message is posted to Ada's chat, and Ada's press answers.
      await page.getByTestId('chat-test-telegram').click();
      await page
        .getByTestId('chat-test-telegram-outcome')
        .filter({ hasText: 'Test message sent' })
        .waitFor();
      const test = telegram.messages.at(-1)!;
      expect(test.chat_id).toBe('9001');
      const q = telegram.press(ADA, test, test.keyboard![0]![0]!.callback_data);
      await telegram.until(() => telegram.answers.has(q), 15_000);
      expect(telegram.answers.get(q)).toMatch(/Buttons work/);
    } finally {
      await context.close();
    }
  });
});
