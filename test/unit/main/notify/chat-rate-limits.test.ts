import { afterEach, describe, expect, it } from 'vitest';
import { DiscordChannel } from '../../../../main/notify/discord-channel';
import { SlackChannel } from '../../../../main/notify/slack-channel';
import { TelegramChannel } from '../../../../main/notify/telegram-channel';
import { testNotification } from '../../../../main/notify/test-notification';
import type { NotificationChannel } from '../../../../main/notify/types';
import {
  DiscordChannelSettings,
  SlackChannelSettings,
  TelegramChannelSettings,
} from '../../../../shared/settings/notifications';
import { DiscordServer } from '../../../support/discord-server';
import { FakeClock } from '../../../support/fake-clock';
import { SlackServer } from '../../../support/slack-server';
import { TelegramServer } from '../../../support/telegram-server';

/**
 * A chat app that answers a post with 429 asks for a wait: the channel retries after exactly
 * that wait (on the injected clock), not after its own shorter back-off, which the app would
 * refuse again. Each app's local server (test/support/) answers 429 as its API documents.
 */
const RETRY_AFTER_S = 3;

interface Stage {
  channel: NotificationChannel;
  posts: () => number;
  close: () => Promise<void>;
}

async function telegramStage(clock: FakeClock): Promise<Stage> {
  const server = new TelegramServer('42:rate-limit');
  await server.listen();
  server.rateLimit('sendMessage', RETRY_AFTER_S);
  const config = TelegramChannelSettings.parse({
    botToken: server.token,
    chatId: '9001',
    apiBase: server.url,
  });
  return {
    channel: new TelegramChannel({ clock, getConfig: () => config, log: () => undefined }),
    posts: () => server.calls.filter((c) => c === 'sendMessage').length,
    close: () => server.close(),
  };
}

async function slackStage(clock: FakeClock): Promise<Stage> {
  const server = new SlackServer('xoxb-rate', 'xapp-rate');
  await server.listen();
  server.rateLimit('chat.postMessage', RETRY_AFTER_S);
  const config = SlackChannelSettings.parse({
    botToken: server.botToken,
    channel: 'C0RATE',
    apiBase: server.apiBase,
  });
  return {
    channel: new SlackChannel({ clock, getConfig: () => config, log: () => undefined }),
    posts: () => server.calls.filter((c) => c === 'chat.postMessage').length,
    close: () => server.close(),
  };
}

async function discordStage(clock: FakeClock): Promise<Stage> {
  const channelId = '1100000000000000077';
  const server = new DiscordServer('rate.limit.token', channelId);
  await server.listen();
  server.rateLimit(`POST /channels/${channelId}/messages`, RETRY_AFTER_S);
  const config = DiscordChannelSettings.parse({
    botToken: 'rate.limit.token',
    channelId,
    apiBase: server.apiBase,
  });
  return {
    channel: new DiscordChannel({ clock, getConfig: () => config, log: () => undefined }),
    posts: () => server.ops.filter((o) => o === 'POST /channels/{id}/messages').length,
    close: () => server.close(),
  };
}

/** Waits (real time) until `check` holds: the HTTP round trips are real. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('chat channels honour a 429 on posting', () => {
  let stage: Stage | undefined;
  afterEach(async () => {
    await stage?.close();
    stage = undefined;
  });

  it.each([
    ['telegram', telegramStage],
    ['slack', slackStage],
    ['discord', discordStage],
  ] as const)(
    '%s: the post is retried after the wait the 429 asked for, not before',
    async (_app, make) => {
      const clock = new FakeClock();
      stage = await make(clock);
      const { channel, posts } = stage;
      const sent = channel.send(testNotification('rate-1'));
      await until(() => posts() === 1);
      // The channel's own back-off would retry after 1 s: still waiting at 1 s, and just before 3 s.
      await new Promise((r) => setTimeout(r, 100));
      clock.advance(1_000);
      clock.advance(RETRY_AFTER_S * 1000 - 1_001);
      await new Promise((r) => setTimeout(r, 200));
      expect(posts()).toBe(1);
      clock.advance(1);
      await sent;
      expect(posts()).toBe(2);
    },
  );
});
