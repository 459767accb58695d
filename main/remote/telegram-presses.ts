import type { TelegramApi, TelegramCallbackQuery, TelegramUser } from '../notify/telegram-api';
import type { ChatPresses } from './chat-presses';

/** How a Telegram user is shown and recorded: `@name (id)` or `first name (id)`. */
export const telegramUserLabel = (u: TelegramUser): string =>
  `${u.username ? `@${u.username}` : (u.first_name ?? 'user')} (${u.id})`;

/**
 * Turns one `callback_query` into a decision, or into nothing, through the apps' common
 * ChatPresses (allow-list, MAC'd button of that very message, single-use token, audit), and
 * answers every press (`answerCallbackQuery`) so the app stops its spinner. Nothing here reads
 * message text: the bot never decides from what someone (an agent with a Telegram account)
 * writes to it.
 */
export class TelegramPresses {
  constructor(
    private readonly d: {
      api: Pick<TelegramApi, 'answerCallbackQuery'>;
      presses: ChatPresses;
      log: (message: string, error?: unknown) => void;
    },
  ) {}

  async handle(q: TelegramCallbackQuery): Promise<void> {
    let answer = 'Something went wrong; try the dashboard.';
    try {
      answer = (
        await this.d.presses.decide({
          userId: String(q.from.id),
          userLabel: telegramUserLabel(q.from),
          data: q.data ?? '',
          ...(q.message
            ? {
                message: {
                  chatId: String(q.message.chat.id),
                  messageId: String(q.message.message_id),
                },
              }
            : {}),
        })
      ).text;
    } finally {
      await this.d.api
        .answerCallbackQuery({ callback_query_id: q.id, text: answer })
        .catch((e: unknown) => this.d.log('telegram answerCallbackQuery', e));
    }
  }
}
