import type { z } from 'zod';
import type { ChatChannelDeps } from './chat-channel-deps';
import type { TelegramChannelSettings } from '../../shared/settings/notifications';
import { chatSubject, sendWithRetries } from './chat-send';
import { ntfyMessageOf } from './ntfy-channel';
import { TelegramApi, TelegramApiError, type InlineKeyboard } from './telegram-api';
import {
  consoleNotifyLogger,
  type NotificationChannel,
  type NotifyLogger,
  type OutgoingNotification,
} from './types';

export type TelegramConfig = z.infer<typeof TelegramChannelSettings>;

/**
 * The buttons of one request's message and what to do once it is posted
 * (main/remote/telegram-buttons.ts): each button's callback data is a MAC'd short id of a
 * stored record bound to the request and one decision; the posted message is remembered so a
 * decision from any surface can edit it.
 */
export interface TelegramButtonsPort {
  keyboardFor(requestId: string): InlineKeyboard | Promise<InlineKeyboard>;
  /** The test message's one button: a press answers, decides nothing. */
  testKeyboard(): InlineKeyboard;
  posted(requestId: string, chatId: string, messageId: number, text: string): void;
}

/** Telegram's limit on a message's text; longer facts are clipped before it. */
const MAX_TEXT = 4096;

const RISK_LINE = (risk: string | undefined): string[] => (risk ? [`Risk: ${risk}`] : []);

/**
 * Posts notifications to a Telegram chat (`sendMessage`), with Approve / Deny buttons on a
 * message about one request. Plain text (no parse mode): what an agent wrote is never markup.
 * Retries temporary failures (network, 429 after `retry_after`, 5xx) on the injected clock.
 */
export class TelegramChannel implements NotificationChannel {
  readonly id = 'telegram' as const;
  private readonly log: NotifyLogger;
  private readonly api: TelegramApi;

  constructor(private readonly deps: ChatChannelDeps<TelegramConfig, TelegramButtonsPort>) {
    this.log = deps.log ?? consoleNotifyLogger;
    this.api = new TelegramApi(() => deps.getConfig(), deps.fetch);
  }

  async send(n: OutgoingNotification): Promise<void> {
    const config = this.deps.getConfig();
    if (!config.botToken || !config.chatId)
      throw new Error('telegram channel is enabled but has no bot token or chat id');
    const { sole, requestId, isTest } = chatSubject(n);
    const text = (
      sole
        ? [n.title, '', ntfyMessageOf(sole), ...RISK_LINE(sole.risk)].join('\n')
        : `${n.title}\n\n${n.body}`
    ).slice(0, MAX_TEXT);
    const keyboard = !this.deps.buttons
      ? undefined
      : requestId
        ? await this.deps.buttons.keyboardFor(requestId)
        : isTest
          ? this.deps.buttons.testKeyboard()
          : undefined;
    const sent = await sendWithRetries(
      this.deps,
      this.log,
      'telegram',
      (e) => e instanceof TelegramApiError && e.status >= 400 && e.status < 500 && e.status !== 429,
      () =>
        this.api.sendMessage({
          chat_id: config.chatId,
          text,
          ...(keyboard?.length ? { reply_markup: { inline_keyboard: keyboard } } : {}),
        }),
    );
    if (requestId && keyboard?.length)
      this.deps.buttons?.posted(requestId, config.chatId, sent.message_id, text);
  }
}
