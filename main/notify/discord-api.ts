import { z } from 'zod';

/**
 * The few Discord REST endpoints Gatehouse uses (discord.com/developers/docs): JSON bodies,
 * `Authorization: Bot <token>`, errors answered `{ code, message }` (a 429 adds
 * `retry_after` in seconds). Interaction callbacks are authorised by the interaction's own
 * token in the URL, not the bot's.
 */
export interface DiscordApiConfig {
  apiBase: string;
  botToken: string;
}

/** A button component (type 2); `custom_id` holds at most 100 characters. */
export interface DiscordButton {
  type: 2;
  /** 1 primary, 2 secondary, 3 success (green), 4 danger (red). */
  style: 1 | 2 | 3 | 4;
  label: string;
  custom_id: string;
}
/** An action row (type 1) of up to five buttons. */
export interface DiscordActionRow {
  type: 1;
  components: DiscordButton[];
}

export interface DiscordEmbed {
  title?: string | undefined;
  description?: string | undefined;
  color?: number | undefined;
  fields?: { name: string; value: string; inline?: boolean | undefined }[] | undefined;
}

export interface DiscordMessageBody {
  content?: string;
  embeds?: DiscordEmbed[];
  components?: DiscordActionRow[];
  /** Mentions in what an agent wrote must ping nobody. */
  allowed_mentions?: { parse: string[] };
}

const User = z.object({
  id: z.string(),
  username: z.string().optional(),
  global_name: z.string().nullish(),
  bot: z.boolean().optional(),
});
export type DiscordUser = z.infer<typeof User>;

const Message = z.object({ id: z.string(), channel_id: z.string() });
export type DiscordMessage = z.infer<typeof Message>;

const Channel = z.object({ id: z.string(), name: z.string().nullish() });

const GatewayBot = z.object({ url: z.string() });

const Failure = z.object({
  code: z.number().optional(),
  message: z.string().optional(),
  retry_after: z.number().optional(),
});

/** A refusal by Discord; `retryAfterS` when it asked to slow down (429). */
export class DiscordApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

/** Interaction callback types used: 4 a message (ephemeral with flags 64), 7 update the pressed message. */
export type InteractionResponse =
  | { type: 4; data: { content: string; flags: 64 } }
  /** Acknowledged now; the message is edited later (DEFERRED_UPDATE_MESSAGE). */
  | { type: 6 }
  | { type: 7; data: DiscordMessageBody };

export class DiscordApi {
  constructor(
    private readonly config: () => DiscordApiConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  me(): Promise<DiscordUser> {
    return this.call('GET', '/users/@me', undefined, User);
  }

  channel(channelId: string): Promise<z.infer<typeof Channel>> {
    return this.call('GET', `/channels/${digits(channelId)}`, undefined, Channel);
  }

  /** The Gateway's URL for a bot (`GET /gateway/bot`). */
  async gatewayUrl(): Promise<string> {
    return (await this.call('GET', '/gateway/bot', undefined, GatewayBot)).url;
  }

  createMessage(channelId: string, body: DiscordMessageBody): Promise<DiscordMessage> {
    return this.call('POST', `/channels/${digits(channelId)}/messages`, body, Message);
  }

  async editMessage(channelId: string, messageId: string, body: DiscordMessageBody): Promise<void> {
    await this.call(
      'PATCH',
      `/channels/${digits(channelId)}/messages/${digits(messageId)}`,
      body,
      z.unknown(),
    );
  }

  /** Answers an interaction (within Discord's 3 s); its token is the authorisation. */
  async respond(
    interactionId: string,
    token: string,
    response: InteractionResponse,
  ): Promise<void> {
    if (!/^[A-Za-z0-9._-]{1,500}$/.test(token))
      throw new DiscordApiError('bad interaction token', 0);
    await this.call(
      'POST',
      `/interactions/${digits(interactionId)}/${token}/callback`,
      response,
      z.unknown(),
      false,
    );
  }

  /**
   * A message only the presser sees, after the interaction was answered (a follow-up:
   * `POST /webhooks/{application_id}/{token}`, valid for 15 minutes; the token is the
   * authorisation).
   */
  async followUp(applicationId: string, token: string, content: string): Promise<void> {
    if (!/^[A-Za-z0-9._-]{1,500}$/.test(token))
      throw new DiscordApiError('bad interaction token', 0);
    await this.call(
      'POST',
      `/webhooks/${digits(applicationId)}/${token}`,
      { content: content.slice(0, 2000), flags: 64 },
      z.unknown(),
      false,
    );
  }

  private async call<T extends z.ZodType>(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    body: object | undefined,
    result: T,
    asBot = true,
  ): Promise<z.infer<T>> {
    const c = this.config();
    if (asBot && !c.botToken) throw new DiscordApiError('discord has no bot token', 0);
    const res = await this.fetchImpl(`${c.apiBase.replace(/\/+$/, '')}${path}`, {
      method,
      headers: {
        ...(asBot ? { Authorization: `Bot ${c.botToken}` } : {}),
        ...(body ? { 'Content-Type': 'application/json' } : {}),
        'User-Agent': 'DiscordBot (https://github.com/gatehouse, 1)',
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      redirect: 'error',
      signal: AbortSignal.timeout(15_000),
    });
    if (res.status === 204) return result.parse(undefined);
    const json: unknown = await res.json().catch(() => undefined);
    if (res.ok) {
      const parsed = result.safeParse(json);
      if (parsed.success) return parsed.data;
    }
    const failed = Failure.safeParse(json);
    // Never echo the token or the URL (an interaction token is in it): the route and Discord's words.
    const why = failed.success ? (failed.data.message ?? '') : 'unexpected answer';
    throw new DiscordApiError(
      `discord ${method} ${path.replace(/\/(interactions|webhooks)\/.*/, '/$1/…')}: HTTP ${res.status} ${why}`
        .trim()
        .slice(0, 300),
      res.status,
      failed.success ? failed.data.retry_after : undefined,
    );
  }
}

/** An id in a path: digits only, so nothing from the outside can change the route. */
function digits(id: string): string {
  if (!/^\d{1,20}$/.test(id)) throw new DiscordApiError('expected a Discord id (digits)', 0);
  return id;
}
