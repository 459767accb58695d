import type { TelegramApi, TelegramCallbackQuery, TelegramUser } from '../notify/telegram-api';
import type { ChatPresses } from './chat-presses';

/** How a Telegram user is shown and recorded: `@name (id)` or `first name (id)`. */
export const telegramUserLabel = (u: TelegramUser): string =>
  `${u.username ? `@${u.username}` : (u.first_name ?? 'user')} (${u.id})`;

/**
 * Telegram's side of a press: one `callback_query` read as a chat press (who, the data, the
 * message it was pressed on) and decided by {@link ChatPresses}. Every press is answered
 * (`answerCallbackQuery`), so the app stops its spinner.
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
          user: telegramUserLabel(q.from),
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
