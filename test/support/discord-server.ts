import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { readBody } from './http-body';

/**
 * A local Discord for tests, written from Discord's developer documentation
 * (discord.com/developers/docs): the REST endpoints Gatehouse calls and the Gateway.
 *
 * REST (under `/api/v10`, `Authorization: Bot <token>`, else 401 `{"message":"401:
 * Unauthorized","code":0}`):
 * - `GET /users/@me`, `GET /gateway/bot` (`{ url }`: this server's Gateway),
 *   `GET /channels/{id}` (404 code 10003 "Unknown Channel" for another id);
 * - `POST /channels/{id}/messages`: embeds (≤ 10; title ≤ 256, description ≤ 4096, ≤ 25
 *   fields) and components (≤ 5 action rows of type 1, each ≤ 5 buttons of type 2 whose
 *   `custom_id` is 1–100 characters), else 400 code 50035 "Invalid Form Body";
 * - `PATCH /channels/{id}/messages/{id}`: replaces the content, embeds and components given;
 * - `POST /interactions/{id}/{token}/callback` (no bot token: the interaction's token is the
 *   authority): 204 once per interaction within 3 s of its creation; an unknown or late one is
 *   404 code 10062 "Unknown interaction", a second answer 400 code 40060 "Interaction has
 *   already been acknowledged". Type 4 with flags 64 is an ephemeral reply to the presser;
 *   type 7 updates the message the button is on; type 6 (DEFERRED_UPDATE_MESSAGE, no data)
 *   acknowledges it, the message being edited later;
 * - `POST /webhooks/{application_id}/{token}` (no bot token): a follow-up message of an
 *   interaction already answered, within 15 minutes (else 404 code 10015 "Unknown Webhook");
 *   kept in `followUps` by interaction id.
 *
 * Ids are snowflakes: the milliseconds since Discord's epoch (2015) shifted left 22 bits, so
 * an interaction's id says when it was created.
 *
 * Gateway (`ws://…/gateway`): HELLO (op 10, `heartbeat_interval`) on connect; IDENTIFY
 * (op 2) with the bot token answers READY (op 0, `session_id`, `resume_gateway_url`), a wrong
 * token closes 4004; HEARTBEAT (op 1) is answered HEARTBEAT_ACK (op 11) unless `silence`
 * is set; RESUME (op 6) with a known session replays every dispatch after the given `seq`
 * then RESUMED, an unknown one gets INVALID_SESSION (op 9, d false). Dispatches carry
 * increasing `s` per session and are kept, so a press made while the client is away is
 * delivered on resume.
 *
 * `press(…)` creates an INTERACTION_CREATE (type 3, a message component) exactly as Discord
 * sends one when a user clicks a button.
 */
export interface PostedMessage {
  id: string;
  channel_id: string;
  content: string;
  embeds: Embed[];
  components: ActionRow[];
  /** Each PATCH and type-7 update, in order. */
  edits: { embeds: Embed[]; components: ActionRow[] }[];
}

interface Embed {
  title?: string;
  description?: string;
  fields?: { name: string; value: string }[];
}
interface ActionRow {
  type: number;
  components: { type: number; style: number; label: string; custom_id: string }[];
}

export interface DiscordUserFields {
  id: string;
  username: string;
}

interface Interaction {
  id: string;
  token: string;
  createdAt: number;
  messageId: string;
  answered?: { type: number; data: Record<string, unknown> };
}

interface Session {
  id: string;
  seq: number;
  log: { s: number; t: string; d: unknown }[];
  socket: WebSocket | undefined;
}

const API = '/api/v10';
const DISCORD_EPOCH = 1_420_070_400_000;
/** How long an interaction's token can send follow-ups. */
const FOLLOW_UP_MS = 15 * 60_000;
const BOT_USER = { id: '4000000000000001', username: 'gatehouse-test', bot: true };

export class DiscordServer {
  readonly messages: PostedMessage[] = [];
  /** Every message body posted, as sent. */
  readonly bodies: Record<string, unknown>[] = [];
  /** What each interaction was answered, by its id. */
  readonly answers = new Map<string, { type: number; data: Record<string, unknown> }>();
  /** Each INTERACTION_CREATE's payload, by interaction id (to hand it over without a Gateway). */
  readonly created = new Map<string, Record<string, unknown>>();
  /** The follow-up messages sent for each interaction, by its id. */
  readonly followUps = new Map<string, Record<string, unknown>[]>();
  /** How many callbacks were made for each interaction (a second is refused). */
  readonly callbacks = new Map<string, number>();
  /** How many times each interaction was written to a Gateway socket. */
  readonly deliveries = new Map<string, number>();
  readonly ops: string[] = [];
  /** The sequence number each heartbeat carried. */
  readonly heartbeatSeqs: (number | null)[] = [];
  /** While set, a posted message is kept but its POST is answered only by `releasePosts()`. */
  holdPosts = false;
  private readonly heldPosts: (() => void)[] = [];
  /** Heartbeats go unanswered while set (a zombie connection). */
  silence = false;
  /** REST routes (`GET /gateway/bot`) to answer 429 with `retry_after` (seconds), once each. */
  private limited = new Map<string, number>();

  rateLimit(route: string, retryAfterS: number): void {
    this.limited.set(route, retryAfterS);
  }
  heartbeatIntervalMs = 500;
  private readonly sessions = new Map<string, Session>();
  private readonly interactions = new Map<string, Interaction>();
  private readonly sockets = new Set<WebSocket>();
  private increment = 0n;
  private waiters: (() => void)[] = [];
  private server: Server | undefined;
  private wss: WebSocketServer | undefined;
  port = 0;

  constructor(
    readonly token: string,
    readonly channelId: string,
  ) {}

  get apiBase(): string {
    return `http://127.0.0.1:${this.port}${API}`;
  }

  get gatewayUrl(): string {
    return `ws://127.0.0.1:${this.port}/gateway`;
  }

  count(op: string): number {
    return this.ops.filter((o) => o === op).length;
  }

  async listen(port = 0): Promise<void> {
    const server = createServer((req, res) => void this.rest(req, res));
    const wss = new WebSocketServer({ noServer: true });
    server.on('upgrade', (req, socket, head) => {
      if (!(req.url ?? '').startsWith('/gateway')) return socket.destroy();
      wss.handleUpgrade(req, socket, head, (ws) => this.gateway(ws));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    this.wss = wss;
    this.port = (server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    this.wss?.close();
    const s = this.server;
    this.server = undefined;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  /** Answers the message POSTs held by `holdPosts`, and holds no more. */
  releasePosts(): void {
    this.holdPosts = false;
    for (const answer of this.heldPosts.splice(0)) answer();
  }

  /** Drops every Gateway connection without a close frame (a network failure). */
  drop(): void {
    for (const ws of this.sockets) ws.terminate();
  }

  /** Asks every connected client to reconnect and resume (op 7 RECONNECT). */
  askReconnect(): void {
    for (const ws of this.sockets) this.send(ws, { op: 7, d: null });
  }

  /** Ends every session, as Discord does after a long outage: a RESUME is then refused. */
  forgetSessions(): void {
    this.sessions.clear();
  }

  /** A user clicks a button of a message: an INTERACTION_CREATE to the bot's session. */
  press(
    user: DiscordUserFields,
    message: Pick<PostedMessage, 'id' | 'channel_id'>,
    customId: string,
  ): string {
    const id = this.snowflake();
    const token = `aW50ZXJhY3Rpb246${randomBytes(24).toString('base64url')}`;
    this.interactions.set(id, { id, token, createdAt: Date.now(), messageId: message.id });
    const interaction = {
      id,
      application_id: BOT_USER.id,
      type: 3,
      token,
      version: 1,
      guild_id: '7000000000000001',
      channel_id: message.channel_id,
      member: { user: { ...user, discriminator: '0', global_name: user.username }, roles: [] },
      message: { id: message.id, channel_id: message.channel_id, type: 0, content: '' },
      data: { custom_id: customId, component_type: 2 },
      locale: 'en-US',
    };
    this.created.set(id, interaction);
    this.dispatch('INTERACTION_CREATE', interaction);
    return id;
  }

  /** Waits until `check` holds, re-checking on every call and frame the server handles. */
  async until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('discord server: timed out waiting');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  private changed(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** A snowflake: the time since Discord's epoch, then worker, process and increment bits. */
  private snowflake(): string {
    this.increment = (this.increment + 1n) & 0xfffn;
    return String((BigInt(Date.now() - DISCORD_EPOCH) << 22n) | this.increment);
  }

  /** Sends a dispatch to the one session (the bot's), kept for a RESUME to replay. */
  private dispatch(t: string, d: unknown): void {
    for (const session of this.sessions.values()) {
      const s = ++session.seq;
      session.log.push({ s, t, d });
      if (session.socket) this.send(session.socket, { op: 0, t, s, d });
    }
  }

  private send(ws: WebSocket, frame: { op: number; d: unknown; s?: number; t?: string }): void {
    if (frame.t === 'INTERACTION_CREATE') {
      const id = (frame.d as { id: string }).id;
      this.deliveries.set(id, (this.deliveries.get(id) ?? 0) + 1);
    }
    ws.send(JSON.stringify({ s: null, t: null, ...frame }));
  }

  private gateway(ws: WebSocket): void {
    this.sockets.add(ws);
    this.ops.push('connect');
    let session: Session | undefined;
    ws.on('close', () => {
      this.sockets.delete(ws);
      if (session?.socket === ws) session.socket = undefined;
      this.ops.push('disconnect');
      this.changed();
    });
    ws.on('message', (raw) => {
      let frame: { op?: number; d?: Record<string, unknown> | number | null };
      try {
        frame = JSON.parse(String(raw)) as typeof frame;
      } catch {
        return void ws.close(4002, 'Decode error');
      }
      const d = typeof frame.d === 'object' && frame.d !== null ? frame.d : {};
      switch (frame.op) {
        case 1:
          this.ops.push('heartbeat');
          this.heartbeatSeqs.push(typeof frame.d === 'number' ? frame.d : null);
          if (!this.silence) this.send(ws, { op: 11, d: null });
          break;
        case 2: {
          this.ops.push('identify');
          if (d.token !== this.token) return void ws.close(4004, 'Authentication failed.');
          session = { id: randomBytes(16).toString('hex'), seq: 0, log: [], socket: ws };
          this.sessions.clear();
          this.sessions.set(session.id, session);
          const s = ++session.seq;
          this.send(ws, {
            op: 0,
            t: 'READY',
            s,
            d: {
              v: 10,
              user: BOT_USER,
              guilds: [],
              session_id: session.id,
              resume_gateway_url: `ws://127.0.0.1:${this.port}/gateway?resume=1`,
              application: { id: BOT_USER.id, flags: 0 },
            },
          });
          break;
        }
        case 6: {
          this.ops.push('resume');
          const known = this.sessions.get(String(d.session_id));
          if (d.token !== this.token || !known) {
            this.send(ws, { op: 9, d: false });
            break;
          }
          session = known;
          known.socket = ws;
          const after = typeof d.seq === 'number' ? d.seq : 0;
          for (const e of known.log) if (e.s > after) this.send(ws, { op: 0, ...e });
          this.send(ws, { op: 0, t: 'RESUMED', s: ++known.seq, d: null });
          break;
        }
        default:
          return void ws.close(4001, 'Unknown opcode');
      }
      this.changed();
    });
    this.send(ws, { op: 10, d: { heartbeat_interval: this.heartbeatIntervalMs } });
  }

  private async rest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const reply = (status: number, body?: object): void => {
      if (body === undefined) {
        res.writeHead(status);
        res.end();
      } else {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      }
      this.changed();
    };
    const path = (req.url ?? '').split('?')[0]!;
    if (!path.startsWith(API)) return reply(404, { message: '404: Not Found', code: 0 });
    const route = path.slice(API.length);
    let body: Record<string, unknown> = {};
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return reply(400, { message: '400: Bad Request', code: 0 });
    }
    const callback = /^\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(route);
    if (callback && req.method === 'POST')
      return this.callback(callback[1]!, callback[2]!, body, reply);
    const webhook = /^\/webhooks\/(\d+)\/([^/]+)$/.exec(route);
    if (webhook && req.method === 'POST')
      return this.followUp(webhook[1]!, webhook[2]!, body, reply);
    if (req.headers.authorization !== `Bot ${this.token}`)
      return reply(401, { message: '401: Unauthorized', code: 0 });
    this.ops.push(`${req.method} ${route.replace(/\d{5,}/g, '{id}')}`);
    const retryAfter = this.limited.get(`${req.method} ${route}`);
    if (retryAfter !== undefined) {
      this.limited.delete(`${req.method} ${route}`);
      return reply(429, {
        message: 'You are being rate limited.',
        retry_after: retryAfter,
        global: false,
      });
    }
    if (req.method === 'GET' && route === '/users/@me') return reply(200, BOT_USER);
    if (req.method === 'GET' && route === '/gateway/bot')
      return reply(200, {
        url: `ws://127.0.0.1:${this.port}/gateway`,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 },
      });
    const channel = /^\/channels\/(\d+)(\/messages(?:\/(\d+))?)?$/.exec(route);
    if (!channel || channel[1] !== this.channelId)
      return reply(404, { message: 'Unknown Channel', code: 10003 });
    if (req.method === 'GET' && !channel[2])
      return reply(200, { id: this.channelId, type: 0, name: 'approvals' });
    if (req.method === 'POST' && channel[2] && !channel[3]) {
      const invalid = invalidForm(body);
      if (invalid)
        return reply(400, { message: 'Invalid Form Body', code: 50035, errors: invalid });
      this.bodies.push(body);
      const m: PostedMessage = {
        id: this.snowflake(),
        channel_id: this.channelId,
        content: typeof body.content === 'string' ? body.content : '',
        embeds: (body.embeds as Embed[] | undefined) ?? [],
        components: (body.components as ActionRow[] | undefined) ?? [],
        edits: [],
      };
      this.messages.push(m);
      const answer = () => reply(200, { ...m, edits: undefined, author: BOT_USER, type: 0 });
      if (this.holdPosts) {
        this.heldPosts.push(answer);
        return this.changed();
      }
      return answer();
    }
    if (req.method === 'PATCH' && channel[3]) {
      const m = this.messages.find((x) => x.id === channel[3]);
      if (!m) return reply(404, { message: 'Unknown Message', code: 10008 });
      const invalid = invalidForm(body);
      if (invalid)
        return reply(400, { message: 'Invalid Form Body', code: 50035, errors: invalid });
      this.update(m, body);
      return reply(200, { ...m, edits: undefined });
    }
    return reply(405, { message: '405: Method Not Allowed', code: 0 });
  }

  private callback(
    id: string,
    token: string,
    body: Record<string, unknown>,
    reply: (status: number, body?: object) => void,
  ): void {
    this.callbacks.set(id, (this.callbacks.get(id) ?? 0) + 1);
    const i = this.interactions.get(id);
    if (!i || i.token !== token || Date.now() - i.createdAt > 3_000)
      return reply(404, { message: 'Unknown interaction', code: 10062 });
    if (i.answered)
      return reply(400, { message: 'Interaction has already been acknowledged.', code: 40060 });
    const data = (body.data ?? {}) as Record<string, unknown>;
    if (body.type === 7) {
      const m = this.messages.find((x) => x.id === i.messageId);
      if (!m) return reply(404, { message: 'Unknown Message', code: 10008 });
      const invalid = invalidForm(data);
      if (invalid)
        return reply(400, { message: 'Invalid Form Body', code: 50035, errors: invalid });
      this.update(m, data);
    } else if (body.type === 6) {
      // Acknowledged; the message is edited later.
    } else if (body.type === 4) {
      if (typeof data.content !== 'string' || data.content.length > 2000)
        return reply(400, { message: 'Invalid Form Body', code: 50035 });
    } else return reply(400, { message: 'Invalid interaction response type', code: 50035 });
    i.answered = { type: body.type, data };
    this.answers.set(id, i.answered);
    reply(204);
  }

  private followUp(
    applicationId: string,
    token: string,
    body: Record<string, unknown>,
    reply: (status: number, body?: object) => void,
  ): void {
    const i = [...this.interactions.values()].find((x) => x.token === token);
    if (applicationId !== BOT_USER.id || !i?.answered || Date.now() - i.createdAt > FOLLOW_UP_MS)
      return reply(404, { message: 'Unknown Webhook', code: 10015 });
    if (typeof body.content !== 'string' || !body.content || body.content.length > 2000)
      return reply(400, { message: 'Invalid Form Body', code: 50035 });
    this.followUps.set(i.id, [...(this.followUps.get(i.id) ?? []), body]);
    reply(200, {
      id: this.snowflake(),
      channel_id: this.channelId,
      content: body.content,
      flags: body.flags,
      webhook_id: applicationId,
    });
  }

  private update(m: PostedMessage, body: Record<string, unknown>): void {
    if (typeof body.content === 'string') m.content = body.content;
    if (Array.isArray(body.embeds)) m.embeds = body.embeds as Embed[];
    if (Array.isArray(body.components)) m.components = body.components as ActionRow[];
    m.edits.push({ embeds: m.embeds, components: m.components });
  }
}

/** What Discord's form validation would refuse in a message body, or undefined. */
function invalidForm(body: Record<string, unknown>): string | undefined {
  const embeds = (body.embeds ?? []) as Embed[];
  if (embeds.length > 10) return 'embeds: at most 10';
  for (const e of embeds) {
    if ((e.title?.length ?? 0) > 256) return 'embed title: at most 256';
    if ((e.description?.length ?? 0) > 4096) return 'embed description: at most 4096';
    if ((e.fields?.length ?? 0) > 25) return 'embed fields: at most 25';
    for (const f of e.fields ?? [])
      if (!f.name || f.name.length > 256 || !f.value || f.value.length > 1024)
        return 'embed field: name 1–256, value 1–1024';
  }
  const rows = (body.components ?? []) as ActionRow[];
  if (rows.length > 5) return 'components: at most 5 rows';
  for (const row of rows) {
    if (row.type !== 1 || row.components.length < 1 || row.components.length > 5)
      return 'action row: type 1 with 1–5 components';
    for (const b of row.components)
      if (b.type !== 2 || !b.custom_id || b.custom_id.length > 100 || b.label.length > 80)
        return 'button: type 2, custom_id 1–100 characters, label ≤ 80';
  }
  return undefined;
}
