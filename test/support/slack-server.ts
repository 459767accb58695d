import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { readBody } from './http-body';

/**
 * A local Slack Web API and Socket Mode server for tests, written from Slack's documentation
 * (docs.slack.dev: the methods' reference pages, "Using Socket Mode", the block_actions
 * payload, the Block Kit reference):
 *
 * - `POST /api/<method>` with a JSON body and `Authorization: Bearer <token>`; answered HTTP
 *   200 `{"ok":true,…}` or `{"ok":false,"error":"…"}`. The bot token (xoxb-) may call
 *   auth.test, chat.postMessage (blocks checked against Block Kit's limits: ≤ 50 blocks, a
 *   header ≤ 150 characters, a section's text ≤ 3000, a button's text ≤ 75, `action_id` ≤ 255
 *   and unique in the message, `value` ≤ 2000, else `invalid_blocks`), chat.update and
 *   chat.postEphemeral; the app-level token (xapp-) only apps.connections.open, which answers
 *   a single-use WebSocket URL. Any other token: `invalid_auth`; the wrong kind:
 *   `not_allowed_token_type`.
 * - The WebSocket sends `hello` on connect, then envelopes `{envelope_id, type: "interactive",
 *   payload, accepts_response_payload, retry_attempt, retry_reason}`. An envelope stays
 *   unacknowledged until the client sends `{"envelope_id": …}`; every unacknowledged one is
 *   delivered again (retry_attempt + 1) on the next connection, as Slack does.
 * - `press(…)` delivers a `block_actions` payload exactly as Slack does when a user clicks a
 *   button of a message; `redeliver(…)` sends an envelope again (a retry after a late ack);
 *   `drop()` cuts every connection; `disconnect(reason)` sends Slack's `disconnect` frame.
 * The state outlives `close()`: `listen(port)` again restarts the "server" where it was.
 */
export interface PostedSlackMessage {
  channel: string;
  ts: string;
  text: string;
  blocks: SlackBlockJson[];
  edits: { text: string; blocks: SlackBlockJson[] }[];
}

export interface SlackBlockJson {
  type: string;
  block_id?: string;
  text?: { type: string; text: string };
  fields?: { type: string; text: string }[];
  elements?: {
    type: string;
    text?: { type: string; text: string } | string;
    action_id?: string;
    value?: string;
  }[];
}

export interface SlackUserFields {
  id: string;
  username: string;
}

interface Envelope {
  envelope_id: string;
  type: 'interactive';
  payload: object;
  accepts_response_payload: boolean;
  retry_attempt: number;
  retry_reason: string;
  acked: boolean;
  /** How many times it was sent; each send after the first is a retry. */
  sent: number;
}

const TEAM = { id: 'T0GATEHSE', domain: 'gatehouse-test' };
const APP_ID = 'A0GATEHSE';

export class SlackServer {
  readonly messages: PostedSlackMessage[] = [];
  readonly ephemerals: { channel: string; user: string; text: string }[] = [];
  readonly calls: string[] = [];
  /** Envelopes by id, in the order pressed. */
  readonly envelopes = new Map<string, Envelope>();
  /** How many WebSocket connections were made, and acknowledgements received per envelope. */
  connections = 0;
  readonly acks = new Map<string, number>();
  private sockets = new Set<WebSocket>();
  private tickets = new Set<string>();
  private server: Server | undefined;
  private wss: WebSocketServer | undefined;
  private waiters: (() => void)[] = [];
  private nextTs = 1_700_000_000;
  port = 0;

  constructor(
    readonly botToken: string,
    readonly appToken: string,
  ) {}

  /** Web API methods to answer 429 with `Retry-After` (seconds), once each. */
  private limited = new Map<string, number>();

  rateLimit(method: string, retryAfterS: number): void {
    this.limited.set(method, retryAfterS);
  }

  /**
   * Settable: the Socket Mode connections answer no ping (a connection gone quiet, as a
   * half-open TCP connection does); the client's liveness ping must notice and reconnect.
   */
  silent = false;
  /** Pings the clients sent, answered or not. */
  pings = 0;

  get apiBase(): string {
    return `http://127.0.0.1:${this.port}/api`;
  }

  /** Whether a Socket Mode connection is open and greeted. */
  get connected(): boolean {
    return [...this.sockets].some((s) => s.readyState === s.OPEN);
  }

  async listen(port = 0): Promise<void> {
    // Pongs are sent by hand, so a quiet connection (`silent`) can be played.
    const wss = new WebSocketServer({ noServer: true, autoPong: false });
    const server = createServer((req, res) => {
      void readBody(req).then((raw) => {
        const reply = (body: object, status = 200): void => {
          res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
          res.end(JSON.stringify(body));
        };
        const m = /^\/api\/([\w.]+)$/.exec(req.url ?? '');
        if (!m || req.method !== 'POST') return reply({ ok: false, error: 'unknown_method' }, 404);
        const method = m[1]!;
        this.calls.push(method);
        const retryAfter = this.limited.get(method);
        if (retryAfter !== undefined) {
          this.limited.delete(method);
          this.changed();
          res.writeHead(429, {
            'Content-Type': 'application/json; charset=utf-8',
            'Retry-After': String(retryAfter),
          });
          return res.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
        }
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        const kind = token === this.botToken ? 'bot' : token === this.appToken ? 'app' : undefined;
        if (!token) return reply({ ok: false, error: 'not_authed' });
        if (!kind) return reply({ ok: false, error: 'invalid_auth' });
        if ((method === 'apps.connections.open') !== (kind === 'app'))
          return reply({ ok: false, error: 'not_allowed_token_type' });
        let body: Record<string, unknown>;
        try {
          body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
        } catch {
          return reply({ ok: false, error: 'invalid_json' });
        }
        try {
          reply({ ok: true, ...this.method(method, body) });
        } catch (e) {
          reply({ ok: false, error: (e as Error).message });
        }
      });
    });
    server.on('upgrade', (req, socket, head) => {
      const ticket = new URL(req.url ?? '/', 'http://x').searchParams.get('ticket') ?? '';
      if (!req.url?.startsWith('/link/') || !this.tickets.delete(ticket)) {
        socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => this.connected_(ws));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    this.wss = wss;
    this.port = (server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    this.drop();
    this.wss?.close();
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
    this.changed();
  }

  /** Cuts every Socket Mode connection (no close frame: the network went away). */
  drop(): void {
    for (const s of this.sockets) s.terminate();
    this.sockets.clear();
  }

  /** Slack's `disconnect` frame: the client should open a fresh connection. */
  disconnect(reason: 'refresh_requested' | 'warning' = 'refresh_requested'): void {
    for (const s of this.sockets)
      s.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'local' } }));
  }

  /**
   * A user clicks a button of a message: a `block_actions` envelope, delivered now on the open
   * connection or, when none is open, on the next one. With `thenDrop` the connection is cut
   * right after the envelope is sent, before any acknowledgement can arrive.
   */
  press(
    user: SlackUserFields,
    message: Pick<PostedSlackMessage, 'channel' | 'ts'>,
    button: { action_id: string; value: string; text?: string },
    o: { thenDrop?: boolean } = {},
  ): string {
    const envelopeId = randomBytes(8).toString('hex');
    const posted = this.messages.find((x) => x.channel === message.channel && x.ts === message.ts);
    const envelope: Envelope = {
      envelope_id: envelopeId,
      type: 'interactive',
      accepts_response_payload: false,
      retry_attempt: 0,
      retry_reason: '',
      acked: false,
      sent: 0,
      payload: {
        type: 'block_actions',
        user: { id: user.id, username: user.username, name: user.username, team_id: TEAM.id },
        api_app_id: APP_ID,
        token: 'verification-token-unused-in-socket-mode',
        container: {
          type: 'message',
          message_ts: message.ts,
          channel_id: message.channel,
          is_ephemeral: false,
        },
        trigger_id: `${Date.now()}.${randomBytes(4).toString('hex')}`,
        team: TEAM,
        channel: { id: message.channel, name: 'gatehouse' },
        message: { type: 'message', ts: message.ts, text: posted?.text ?? '', blocks: [] },
        response_url: `http://127.0.0.1:${this.port}/actions/${envelopeId}`,
        actions: [
          {
            type: 'button',
            action_id: button.action_id,
            block_id: 'gatehouse-decide',
            text: { type: 'plain_text', text: button.text ?? button.action_id },
            value: button.value,
            action_ts: `${Date.now() / 1000}`,
          },
        ],
      },
    };
    this.envelopes.set(envelopeId, envelope);
    for (const s of this.sockets) {
      this.send(s, envelope);
      if (o.thenDrop) s.terminate();
      break;
    }
    return envelopeId;
  }

  /** Slack delivers an envelope again (its acknowledgement came late or never). */
  redeliver(envelopeId: string): void {
    const e = this.envelopes.get(envelopeId);
    if (!e) throw new Error('no such envelope');
    for (const s of this.sockets) {
      this.send(s, e);
      break;
    }
  }

  /** Waits until `check` holds, re-checking on every call the server serves. */
  async until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('slack server: timed out waiting');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  private connected_(ws: WebSocket): void {
    this.connections++;
    this.sockets.add(ws);
    ws.on('ping', (data) => {
      this.pings++;
      if (!this.silent) ws.pong(data);
    });
    ws.on('close', () => {
      this.sockets.delete(ws);
      this.changed();
    });
    ws.on('message', (data) => {
      let frame: { envelope_id?: unknown };
      try {
        frame = JSON.parse(String(data)) as { envelope_id?: unknown };
      } catch {
        return;
      }
      const id = typeof frame.envelope_id === 'string' ? frame.envelope_id : '';
      const e = this.envelopes.get(id);
      if (!e) return;
      e.acked = true;
      this.acks.set(id, (this.acks.get(id) ?? 0) + 1);
      this.changed();
    });
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.sockets.size,
        debug_info: { host: 'local', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: APP_ID },
      }),
    );
    // What was never acknowledged comes again on the new connection.
    for (const e of this.envelopes.values()) if (!e.acked) this.send(ws, e);
    this.changed();
  }

  private send(ws: WebSocket, e: Envelope): void {
    e.retry_attempt = e.sent;
    e.retry_reason = e.sent > 0 ? 'timeout' : '';
    e.sent++;
    const { acked: _acked, sent: _sent, ...frame } = e;
    ws.send(JSON.stringify(frame));
  }

  private changed(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  private method(name: string, b: Record<string, unknown>): object {
    switch (name) {
      case 'auth.test':
        return {
          url: 'https://gatehouse-test.slack.com/',
          team: 'Gatehouse Test',
          user: 'gatehouse',
          team_id: TEAM.id,
          user_id: 'U0GATEBOT',
          bot_id: 'B0GATEBOT',
        };
      case 'apps.connections.open': {
        const ticket = randomBytes(12).toString('hex');
        this.tickets.add(ticket);
        return { url: `ws://127.0.0.1:${this.port}/link/?ticket=${ticket}&app_id=${APP_ID}` };
      }
      case 'chat.postMessage': {
        const channel = String(b.channel ?? '');
        if (!/^[CGD][A-Z0-9]+$/.test(channel)) throw new Error('channel_not_found');
        const blocks = checkBlocks(b.blocks);
        if (typeof b.text !== 'string' && blocks.length === 0) throw new Error('no_text');
        const sent: PostedSlackMessage = {
          channel,
          ts: `${this.nextTs++}.000100`,
          text: typeof b.text === 'string' ? b.text : '',
          blocks,
          edits: [],
        };
        this.messages.push(sent);
        this.changed();
        return { channel, ts: sent.ts, message: { type: 'message', text: sent.text } };
      }
      case 'chat.update': {
        const m = this.messages.find((x) => x.channel === b.channel && x.ts === b.ts);
        if (!m) throw new Error('message_not_found');
        m.blocks = checkBlocks(b.blocks);
        m.text = typeof b.text === 'string' ? b.text : m.text;
        m.edits.push({ text: m.text, blocks: m.blocks });
        this.changed();
        return { channel: m.channel, ts: m.ts, text: m.text };
      }
      case 'chat.postEphemeral': {
        if (typeof b.user !== 'string' || typeof b.channel !== 'string')
          throw new Error('invalid_arguments');
        this.ephemerals.push({ channel: b.channel, user: b.user, text: String(b.text ?? '') });
        this.changed();
        return { message_ts: `${this.nextTs++}.000200` };
      }
      default:
        throw new Error('unknown_method');
    }
  }
}

/** Block Kit's limits on what Gatehouse sends; anything past them is `invalid_blocks`. */
function checkBlocks(raw: unknown): SlackBlockJson[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > 50) throw new Error('invalid_blocks');
  const actionIds = new Set<string>();
  for (const block of raw as SlackBlockJson[]) {
    const text = block.text?.text ?? '';
    if (block.type === 'header' && (block.text?.type !== 'plain_text' || text.length > 150))
      throw new Error('invalid_blocks');
    if (block.type === 'section') {
      if (text.length > 3000 || (block.fields ?? []).length > 10) throw new Error('invalid_blocks');
      for (const f of block.fields ?? [])
        if (f.text.length > 2000) throw new Error('invalid_blocks');
    }
    if (block.type === 'actions')
      for (const e of block.elements ?? []) {
        const label = typeof e.text === 'string' ? e.text : (e.text?.text ?? '');
        if (e.type !== 'button' || label.length > 75 || !e.action_id)
          throw new Error('invalid_blocks');
        if (e.action_id.length > 255 || actionIds.has(e.action_id))
          throw new Error('invalid_blocks');
        if ((e.value ?? '').length > 2000) throw new Error('invalid_blocks');
        actionIds.add(e.action_id);
      }
  }
  return raw as SlackBlockJson[];
}
