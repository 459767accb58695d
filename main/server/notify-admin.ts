import { randomBytes } from 'node:crypto';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import type {
  ChatTelegramChatsResult,
  NotificationsTestResult,
} from '../../shared/protocol/notify-methods';
import type { z } from 'zod';
import type { ChannelId } from '../../shared/settings/notifications';
import type { Settings } from '../../shared/settings/index';
import type { NotifyAdminHandlers } from './admin-service';

/** A topic nobody guesses: ntfy topics are readable by whoever knows the name (120 bits). */
export const randomTopic = (prefix: string, random: (n: number) => Buffer = randomBytes): string =>
  `${prefix}-${random(15)
    .toString('base64url')
    .replace(/[^A-Za-z0-9]/g, 'x')}`;

/** Sends the test notification through one channel; undefined when no notifier runs here. */
export type TestChannel = (channel: ChannelId) => Promise<NotificationsTestResult> | undefined;

/**
 * `ntfy.setup` and `notifications.test`: the daemon makes the topics and sends the test, so the
 * CLI and the dashboard do the same thing through the same code as real notifications.
 */
export function notifyAdminHandlers(deps: {
  settings: {
    get(): Settings;
    set(key: string, value: unknown, audited?: unknown): Settings;
  };
  /** The running notifier's test (main/notify/dispatcher.ts); it starts after the core. */
  testChannel?: TestChannel;
  /** Pauses a chat app's way back (main/remote/start-telegram.ts); false when none runs here. */
  pauseChat?: (app: 'telegram', ms: number) => Promise<boolean>;
  /** The chats that wrote to the saved bot (main/remote/start-telegram.ts); absent when none runs here. */
  findTelegramChats?: (
    waitS: number,
  ) => Promise<z.infer<typeof ChatTelegramChatsResult>> | undefined;
  random?: (n: number) => Buffer;
}): NotifyAdminHandlers {
  // What the last look found: only a chat that really wrote to the bot, with its writer, can
  // be chosen (a typo or a guess would send requests, and the right to decide, elsewhere).
  let found: z.infer<typeof ChatTelegramChatsResult>['chats'] = [];
  return {
    'ntfy.setup': (p) => {
      const server = p.server.replace(/\/+$/, '');
      const topic = randomTopic('gatehouse', deps.random);
      const replyTopic = p.replyTopic ? randomTopic('gatehouse-reply', deps.random) : '';
      const current = deps.settings.get().notifications.channels.ntfy;
      const ntfy = {
        ...current,
        enabled: true,
        server,
        token: p.token ?? current.token,
        topic,
        replyTopic,
      };
      // One write, one unit of work: the channel is never on with half its settings. The
      // audit trail records that a token was set, not the token.
      deps.settings.set('notifications.channels.ntfy', ntfy, {
        ...ntfy,
        token: ntfy.token ? '(set)' : '',
      });
      return { server, topic, replyTopic, subscribeUrl: `${server}/${topic}` };
    },
    'notifications.test': async (p) =>
      (await deps.testChannel?.(p.channel)) ?? {
        channel: p.channel,
        ok: false,
        error: 'no notifier runs in this process',
      },
    'chat.pause': async (p) => ({ paused: (await deps.pauseChat?.(p.app, p.ms)) ?? false }),
    'chat.telegramChats': async (p) => {
      const finding = deps.findTelegramChats?.(p.waitS);
      if (!finding)
        throw new GatehouseError(ErrorCode.NotFound, 'no Telegram way back runs in this process');
      // Telegram's own words reach the person (a wrong token: 401); they never hold the token.
      const result = await finding.catch((error: unknown) => {
        if (error instanceof GatehouseError) throw error;
        throw new GatehouseError(
          ErrorCode.InvalidParams,
          error instanceof Error ? error.message : String(error),
        );
      });
      found = result.chats;
      return result;
    },
    'chat.telegramUse': (p) => {
      if (!found.some((c) => c.chatId === p.chatId && c.userId === p.userId))
        throw new GatehouseError(
          ErrorCode.InvalidParams,
          'that chat has not written to the bot: send it /start and look again',
        );
      const current = deps.settings.get().notifications.channels.telegram;
      const telegram = { ...current, chatId: p.chatId, allowedUserIds: [p.userId], enabled: true };
      deps.settings.set('notifications.channels.telegram', telegram, {
        ...telegram,
        botToken: telegram.botToken ? '(set)' : '',
      });
      return { chatId: p.chatId, userId: p.userId };
    },
  };
}
