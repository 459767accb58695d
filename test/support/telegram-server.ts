import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './http-body';

/**
 * A local Telegram Bot API server for tests, written from the Bot API documentation
 * (core.telegram.org/bots/api): `POST /bot<token>/<method>` with a JSON body, answered
 * `{"ok":true,"result":…}` or `{"ok":false,"error_code":…,"description":…}`.
 *
 * - getMe; sendMessage (text, reply_markup.inline_keyboard; callback_data 1–64 bytes, else
 *   400 "BUTTON_DATA_INVALID"); editMessageText (no reply_markup removes the keyboard);
 *   editMessageReplyMarkup; answerCallbackQuery (text ≤ 200 characters).
 * - getUpdates: long polling. Updates with `update_id < offset` are confirmed and dropped;
 *   the rest of the allowed kinds are returned at once, or the call waits up to `timeout`
 *   seconds for one. An unknown token answers 401 "Unauthorized".
 * - `press(…)` queues a `callback_query` exactly as Telegram delivers one when a user taps an
 *   inline button; `say(…)` queues a `message` (a user writing to the bot).
 * The state outlives `close()`: `listen(port)` again restarts the "server" where it was.
 */
export interface SentMessage {
  message_id: number;
  chat_id: string;
  text: string;
  keyboard: { text: string; callback_data: string }[][] | undefined;
  edits: string[];
}

interface Update {
  update_id: number;
  callback_query?: object;
  message?: object;
}

export interface TelegramUserFields {
  id: number;
  first_name: string;
  username?: string;
}

/** How long an aborted poll's closing connection may take to reach this server. */
const ABORTED_POLL_CLOSE_MS = 500;

export class TelegramServer {
  readonly messages: SentMessage[] = [];
  readonly answers = new Map<string, string | undefined>();
  readonly calls: string[] = [];
  /** How many times getUpdates handed out each callback_query, by its id. */
  readonly deliveries = new Map<string, number>();
  private updates: Update[] = [];
  private nextUpdateId = 500;
  private nextMessageId = 1;
  private nextQueryId = 1;
  private waiters: (() => void)[] = [];
  private server: Server | undefined;
  port = 0;

  /** getUpdates calls being answered now; `maxConcurrentPolls` the most at once (two pollers of one bot conflict). */
  private pollsInFlight = 0;
  maxConcurrentPolls = 0;

  /**
   * Methods to answer 429 (`Too Many Requests`, `parameters.retry_after` in seconds), once
   * each: `rateLimit('sendMessage', 3)`.
   */
  private limited = new Map<string, number>();

  rateLimit(method: string, retryAfterS: number): void {
    this.limited.set(method, retryAfterS);
  }

  /** Settable: a revoked token is answered 401 from then on. */
  constructor(public token: string) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(port = 0): Promise<void> {
    const server = createServer((req, res) => {
      void readBody(req).then((raw) => {
        const reply = (status: number, body: object): void => {
          if (res.destroyed || res.writableEnded) return;
          res.writeHead(status, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
        if (!m || req.method !== 'POST')
          return reply(404, { ok: false, error_code: 404, description: 'Not Found' });
        if (m[1] !== this.token)
          return reply(401, { ok: false, error_code: 401, description: 'Unauthorized' });
        let body: Record<string, unknown>;
        try {
          body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
        } catch {
          return reply(400, { ok: false, error_code: 400, description: 'Bad Request' });
        }
        this.calls.push(m[2]!);
        const retryAfter = this.limited.get(m[2]!);
        if (retryAfter !== undefined) {
          this.limited.delete(m[2]!);
          this.changed();
          return reply(429, {
            ok: false,
            error_code: 429,
            description: `Too Many Requests: retry after ${retryAfter}`,
            parameters: { retry_after: retryAfter },
          });
        }
        // A client that went away (an aborted long poll) ends its getUpdates, as on Telegram.
        let gone = false;
        res.on('close', () => {
          gone = true;
          this.changed();
        });
        void this.method(m[2]!, body, () => gone).then(
          (result) => reply(200, { ok: true, result }),
          (e: Error) =>
            reply(400, { ok: false, error_code: 400, description: `Bad Request: ${e.message}` }),
        );
      });
    });
    // A poller that went away (the daemon stopped, the server restarted) is not an error of
    // the test: its socket's EPIPE is dropped, and nothing more is written to it. Once per
    // connection: a kept-alive one carries many requests.
    server.on('connection', (socket) => socket.on('error', () => undefined));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
    this.changed();
  }

  /** A user taps an inline button of a message (Telegram's callback_query update). */
  press(
    from: TelegramUserFields,
    message: Pick<SentMessage, 'message_id' | 'chat_id'>,
    data: string,
  ): string {
    const id = String(this.nextQueryId++);
    this.push({
      callback_query: {
        id,
        from: { is_bot: false, ...from },
        chat_instance: '7',
        message: {
          message_id: message.message_id,
          date: Math.floor(Date.now() / 1000),
          chat: { id: Number(message.chat_id), type: 'private' },
          text: '',
        },
        data,
      },
    });
    return id;
  }

  /** A user writes to the bot (a `message` update). */
  say(from: TelegramUserFields, text: string): void {
    this.push({
      message: {
        message_id: this.nextMessageId++,
        date: Math.floor(Date.now() / 1000),
        from: { is_bot: false, ...from },
        chat: { id: from.id, type: 'private' },
        text,
      },
    });
  }

  /** Waits until `check` holds, re-checking on every call the server serves. */
  async until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('telegram server: timed out waiting');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  private push(u: Omit<Update, 'update_id'>): void {
    this.updates.push({ update_id: this.nextUpdateId++, ...u });
    this.changed();
  }

  private changed(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  private async method(
    name: string,
    b: Record<string, unknown>,
    gone: () => boolean,
  ): Promise<unknown> {
    switch (name) {
      case 'getMe':
        return { id: 4242, is_bot: true, first_name: 'Gatehouse', username: 'gatehouse_test_bot' };
      case 'sendMessage': {
        const markup = b.reply_markup as
          { inline_keyboard?: { text: string; callback_data: string }[][] } | undefined;
        for (const row of markup?.inline_keyboard ?? [])
          for (const button of row) {
            const n = Buffer.byteLength(button.callback_data ?? '');
            if (n < 1 || n > 64) throw new Error('BUTTON_DATA_INVALID');
          }
        if (typeof b.text !== 'string' || !b.text) throw new Error('message text is empty');
        const sent: SentMessage = {
          message_id: this.nextMessageId++,
          chat_id: String(b.chat_id),
          text: b.text,
          keyboard: markup?.inline_keyboard,
          edits: [],
        };
        this.messages.push(sent);
        this.changed();
        return {
          message_id: sent.message_id,
          date: Math.floor(Date.now() / 1000),
          chat: { id: Number(sent.chat_id), type: 'private' },
          text: sent.text,
        };
      }
      case 'editMessageText':
      case 'editMessageReplyMarkup': {
        const m = this.messages.find(
          (x) => x.message_id === b.message_id && x.chat_id === String(b.chat_id),
        );
        if (!m) throw new Error('message to edit not found');
        if (name === 'editMessageText') {
          m.text = String(b.text);
          m.edits.push(m.text);
        }
        m.keyboard = (b.reply_markup as { inline_keyboard?: SentMessage['keyboard'] } | undefined)
          ?.inline_keyboard;
        this.changed();
        return true;
      }
      case 'answerCallbackQuery': {
        const text = b.text === undefined ? undefined : String(b.text);
        if (text !== undefined && text.length > 200) throw new Error('text is too long');
        this.answers.set(String(b.callback_query_id), text);
        this.changed();
        return true;
      }
      case 'getUpdates': {
        // An aborted poll ends when this server sees its connection close, which under load
        // can come after the next poll's request (the daemon stops its poll, then set-up
        // polls). Only a poll still open a moment later is a second poller of the bot.
        const closing = Date.now() + ABORTED_POLL_CLOSE_MS;
        while (this.pollsInFlight > 0 && Date.now() < closing)
          await new Promise((resolve) => setTimeout(resolve, 10));
        this.pollsInFlight++;
        this.maxConcurrentPolls = Math.max(this.maxConcurrentPolls, this.pollsInFlight);
        try {
          return await this.poll(b, gone);
        } finally {
          this.pollsInFlight--;
        }
      }
      default:
        throw new Error(`method ${name} not found`);
    }
  }

  private async poll(b: Record<string, unknown>, gone: () => boolean): Promise<Update[]> {
    const offset = typeof b.offset === 'number' ? b.offset : undefined;
    if (offset !== undefined) this.updates = this.updates.filter((u) => u.update_id >= offset);
    const allowed = Array.isArray(b.allowed_updates) ? (b.allowed_updates as string[]) : [];
    const pick = (): Update[] =>
      this.updates.filter(
        (u) => allowed.length === 0 || allowed.some((k) => k in u && k !== 'update_id'),
      );
    const deadline = Date.now() + Number(b.timeout ?? 0) * 1000;
    while (!gone() && this.server && pick().length === 0 && Date.now() < deadline)
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, Math.max(1, deadline - Date.now()));
      });
    const picked = pick();
    for (const u of picked) {
      const id = (u.callback_query as { id?: string } | undefined)?.id;
      if (id) this.deliveries.set(id, (this.deliveries.get(id) ?? 0) + 1);
    }
    return picked;
  }
}
