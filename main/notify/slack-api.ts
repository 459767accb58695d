import { z } from 'zod';

/**
 * The few Slack Web API methods Gatehouse uses (docs.slack.dev/reference/methods): every call
 * is `POST <apiBase>/<method>` with a JSON body and the token in the `Authorization: Bearer`
 * header (never in the URL or body), answered `{ ok: true, … }` or `{ ok: false, error }`; a
 * 429 says how long to wait in `Retry-After`. The bot token (xoxb-) posts and edits; the
 * app-level token (xapp-) only opens Socket Mode connections.
 */
export interface SlackApiConfig {
  apiBase: string;
  botToken: string;
  appToken: string;
}

/** A Block Kit text object. Agent content is always `plain_text`: never markup, never a mention. */
export interface SlackText {
  type: 'plain_text' | 'mrkdwn';
  text: string;
}

/** A Block Kit button; `value` carries the button's data back in `block_actions`. */
export interface SlackButton {
  type: 'button';
  text: { type: 'plain_text'; text: string };
  action_id: string;
  value: string;
  style?: 'primary' | 'danger';
}

export type SlackBlock =
  | { type: 'header'; text: { type: 'plain_text'; text: string } }
  | { type: 'section'; block_id?: string; text?: SlackText; fields?: SlackText[] }
  | { type: 'context'; elements: SlackText[] }
  | { type: 'actions'; block_id?: string; elements: SlackButton[] };

const Failure = z.object({ ok: z.literal(false), error: z.string().optional() });

/** A refusal by the Web API: Slack's error code, and how long a 429 asked to wait. */
export class SlackApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly error: string,
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

const Posted = z.object({ ok: z.literal(true), channel: z.string(), ts: z.string() });
const AuthTest = z.object({
  ok: z.literal(true),
  team: z.string().optional(),
  team_id: z.string().optional(),
  user: z.string().optional(),
  user_id: z.string().optional(),
  bot_id: z.string().optional(),
});
const ConnectionsOpen = z.object({ ok: z.literal(true), url: z.string() });

export class SlackApi {
  constructor(
    private readonly config: () => SlackApiConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** Checks the bot token: which workspace and bot it names. */
  authTest(): Promise<z.infer<typeof AuthTest>> {
    return this.call('auth.test', {}, AuthTest, 'bot');
  }

  postMessage(p: {
    channel: string;
    text: string;
    blocks?: SlackBlock[];
  }): Promise<{ channel: string; ts: string }> {
    // No unfurling: what the agent wrote must not make Slack fetch its links.
    return this.call(
      'chat.postMessage',
      { ...p, unfurl_links: false, unfurl_media: false },
      Posted,
      'bot',
    );
  }

  /** Replaces a message's text and blocks (the edit that removes the buttons). */
  async update(p: { channel: string; ts: string; text: string; blocks: SlackBlock[] }) {
    await this.call('chat.update', p, z.object({ ok: z.literal(true) }), 'bot');
  }

  /** A message only `user` sees in the channel: how a press is answered. */
  async postEphemeral(p: { channel: string; user: string; text: string }): Promise<void> {
    await this.call('chat.postEphemeral', p, z.object({ ok: z.literal(true) }), 'bot');
  }

  /** A fresh Socket Mode WebSocket URL (app-level token). */
  async connectionsOpen(signal?: AbortSignal): Promise<string> {
    return (await this.call('apps.connections.open', {}, ConnectionsOpen, 'app', signal)).url;
  }

  private async call<T extends z.ZodType>(
    method: string,
    body: object,
    result: T,
    token: 'bot' | 'app',
    signal?: AbortSignal,
  ): Promise<z.infer<T>> {
    const c = this.config();
    const secret = token === 'bot' ? c.botToken : c.appToken;
    if (!secret) throw new SlackApiError(`slack has no ${token} token`, 0, 'not_authed');
    const timeout = AbortSignal.timeout(15_000);
    const res = await this.fetchImpl(`${c.apiBase.replace(/\/+$/, '')}/${method}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        Authorization: `Bearer ${secret}`,
      },
      body: JSON.stringify(body),
      redirect: 'error',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const json: unknown = await res.json().catch(() => undefined);
    const parsed = result.safeParse(json);
    if (res.ok && parsed.success) return parsed.data;
    const failed = Failure.safeParse(json);
    const error = failed.success ? (failed.data.error ?? '') : 'unexpected_answer';
    const retryAfter = Number(res.headers.get('retry-after'));
    // Only the method and Slack's error code: never a token.
    throw new SlackApiError(
      `slack ${method}: HTTP ${res.status} ${error}`.trim().slice(0, 300),
      res.status,
      error,
      res.status === 429 && retryAfter > 0 ? retryAfter : undefined,
    );
  }
}
