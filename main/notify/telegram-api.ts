import { z } from 'zod';

/**
 * The few Telegram Bot API methods Gatehouse uses (core.telegram.org/bots/api): every call is
 * `POST <apiBase>/bot<token>/<method>` with a JSON body, answered `{ ok, result }` or
 * `{ ok: false, error_code, description, parameters?: { retry_after } }`.
 */
export interface TelegramApiConfig {
  apiBase: string;
  botToken: string;
}

/** An inline keyboard button that sends `callback_data` (1–64 bytes) back when pressed. */
export interface InlineButton {
  text: string;
  callback_data: string;
}
export type InlineKeyboard = InlineButton[][];

const User = z.object({
  id: z.number().int(),
  is_bot: z.boolean().optional(),
  first_name: z.string().optional(),
  username: z.string().optional(),
});
export type TelegramUser = z.infer<typeof User>;

const Chat = z.object({ id: z.number().int(), type: z.string().optional() });

const Message = z.object({
  message_id: z.number().int(),
  chat: Chat,
  from: User.optional(),
  text: z.string().optional(),
});
export type TelegramMessage = z.infer<typeof Message>;

const CallbackQuery = z.object({
  id: z.string(),
  from: User,
  message: Message.optional(),
  data: z.string().optional(),
});
export type TelegramCallbackQuery = z.infer<typeof CallbackQuery>;

/** One update; only the kinds Gatehouse asks for are read, the rest pass as unknown. */
const Update = z.object({
  update_id: z.number().int(),
  message: Message.optional(),
  callback_query: CallbackQuery.optional(),
});
export type TelegramUpdate = z.infer<typeof Update>;

const Failure = z.object({
  ok: z.literal(false),
  error_code: z.number().int().optional(),
  description: z.string().optional(),
  parameters: z.object({ retry_after: z.number().optional() }).optional(),
});

/** A refusal by the Bot API; `retryAfterS` when it asked to slow down (429). */
export class TelegramApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

export class TelegramApi {
  constructor(
    private readonly config: () => TelegramApiConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  getMe(): Promise<TelegramUser> {
    return this.call('getMe', {}, User);
  }

  sendMessage(p: {
    chat_id: string;
    text: string;
    reply_markup?: { inline_keyboard: InlineKeyboard };
  }): Promise<TelegramMessage> {
    return this.call('sendMessage', { ...p, link_preview_options: { is_disabled: true } }, Message);
  }

  /** Replaces the text and, with no `reply_markup`, removes the buttons. */
  async editMessageText(p: { chat_id: string; message_id: number; text: string }): Promise<void> {
    await this.call('editMessageText', p, z.unknown());
  }

  async answerCallbackQuery(p: { callback_query_id: string; text?: string }): Promise<void> {
    await this.call('answerCallbackQuery', p, z.boolean());
  }

  /** Long polling: resolves when updates arrive or after `timeout` seconds with none. */
  getUpdates(
    p: { offset?: number; timeout: number; allowed_updates: string[] },
    signal?: AbortSignal,
  ): Promise<TelegramUpdate[]> {
    return this.call('getUpdates', p, z.array(Update), signal, (p.timeout + 10) * 1000);
  }

  private async call<T extends z.ZodType>(
    method: string,
    body: object,
    result: T,
    signal?: AbortSignal,
    timeoutMs = 15_000,
  ): Promise<z.infer<T>> {
    const c = this.config();
    if (!c.botToken) throw new TelegramApiError('telegram has no bot token', 0);
    const timeout = AbortSignal.timeout(timeoutMs);
    const res = await this.fetchImpl(
      `${c.apiBase.replace(/\/+$/, '')}/bot${c.botToken}/${method}`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        redirect: 'error',
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      },
    );
    const json: unknown = await res.json().catch(() => undefined);
    const envelope = z.object({ ok: z.literal(true), result: z.unknown() }).safeParse(json);
    if (envelope.success) {
      const parsed = result.safeParse(envelope.data.result);
      if (parsed.success) return parsed.data;
    }
    const failed = Failure.safeParse(json);
    // The token is in the URL: never echo the URL, only the method and Telegram's words.
    const why = failed.success ? (failed.data.description ?? '') : 'unexpected answer';
    throw new TelegramApiError(
      `telegram ${method}: HTTP ${res.status} ${why}`.trim().slice(0, 300),
      res.status,
      failed.success ? failed.data.parameters?.retry_after : undefined,
    );
  }
}
