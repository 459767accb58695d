import { WebSocket, type RawData } from 'ws';
import { z } from 'zod';
import { backoffDelay } from '../notify/backoff';
import { DiscordApiError } from '../notify/discord-api';
import type { WayBackReport } from './chat-way-back-health';

/** Gateway opcodes (discord.com/developers/docs/topics/opcodes-and-status-codes). */
const OP = {
  DISPATCH: 0,
  HEARTBEAT: 1,
  IDENTIFY: 2,
  RESUME: 6,
  RECONNECT: 7,
  INVALID_SESSION: 9,
  HELLO: 10,
  HEARTBEAT_ACK: 11,
} as const;

/** Close codes after which the same settings cannot work: retried slowly, shown in health. */
const FATAL_CLOSE = new Map<number, string>([
  [4004, 'authentication failed (is the bot token right?)'],
  [4010, 'invalid shard'],
  [4011, 'sharding required'],
  [4012, 'invalid API version'],
  [4013, 'invalid intents'],
  [4014, 'disallowed intents'],
]);
/** Close codes after which the session cannot be resumed: identify again. */
const SESSION_LOST = new Set([4007, 4009]);
/** Our own close code for a connection we drop but whose session we mean to resume (not 1000/1001, which end it). */
const CLOSE_TO_RESUME = 4000;

const MAX_BACKOFF_MS = 60_000;

const Frame = z.object({
  op: z.number().int(),
  d: z.unknown().optional(),
  s: z.number().int().nullish(),
  t: z.string().nullish(),
});
const Hello = z.object({ heartbeat_interval: z.number().positive() });
const Ready = z.object({ session_id: z.string(), resume_gateway_url: z.string() });

/** The Gateway's state, for the channel's health (main/remote/chat-way-back-health.ts). */
export type GatewayState = WayBackReport;

/**
 * Discord's way back, outbound only: the Gateway WebSocket. HELLO gives the heartbeat
 * interval; a heartbeat (with the last sequence number) is sent on it, and one not
 * acknowledged before the next is due means a dead connection (a "zombie"): dropped and
 * resumed. IDENTIFY opens a session (READY: its id and the URL to resume on); after a drop,
 * RESUME with the session and the last sequence makes Discord replay what was missed, so no
 * press is lost, and none is replayed (the sequence says what arrived). INVALID_SESSION, or a
 * close that ends the session, identifies afresh. Reconnects back off, doubling to a minute.
 * Dispatches are handed over one at a time, in order.
 */
export class DiscordGateway {
  private ws: WebSocket | undefined;
  private stopped = false;
  private failures = 0;
  private seq: number | null = null;
  private session: { id: string; resumeUrl: string } | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly d: {
      token: string;
      /** Gateway intents; interactions need none. */
      intents: number;
      /** Where to identify: the settings' override or `GET /gateway/bot`. */
      gatewayUrl: () => Promise<string>;
      onDispatch: (type: string, data: unknown) => Promise<void>;
      onState: (state: GatewayState) => void;
      log: (message: string, error?: unknown) => void;
      initialBackoffMs?: number;
    },
  ) {}

  start(): void {
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    const ws = this.ws;
    this.ws = undefined;
    if (ws && ws.readyState !== WebSocket.CLOSED) {
      const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
      ws.close(1000, 'leaving');
      await Promise.race([closed, new Promise((r) => setTimeout(r, 2_000).unref())]);
      ws.terminate();
    }
    await this.chain;
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    let url: URL;
    try {
      url = new URL(this.session?.resumeUrl ?? (await this.d.gatewayUrl()));
      if (url.protocol !== 'wss:' && url.protocol !== 'ws:') throw new Error('not a ws(s) URL');
    } catch (error) {
      // A 401 from `GET /gateway/bot`: the token is wrong or revoked; retrying soon cannot help.
      const refused = error instanceof DiscordApiError && error.status === 401;
      // A 429 says how long to wait: reconnecting sooner would be refused again.
      const askedS = error instanceof DiscordApiError ? error.retryAfterS : undefined;
      this.failed(`gateway URL: ${messageOf(error)}`, refused, askedS);
      return;
    }
    if (this.stopped) return;
    url.searchParams.set('v', '10');
    url.searchParams.set('encoding', 'json');
    const ws = new WebSocket(url, { handshakeTimeout: 10_000, maxPayload: 4 * 1024 * 1024 });
    this.ws = ws;
    let acked = true;
    const beat = (): void => {
      if (ws.readyState === WebSocket.OPEN)
        ws.send(JSON.stringify({ op: OP.HEARTBEAT, d: this.seq }));
    };
    ws.on('message', (raw: RawData) => {
      let frame: z.infer<typeof Frame>;
      try {
        frame = Frame.parse(JSON.parse(rawText(raw)));
      } catch (error) {
        this.d.log('discord gateway: unreadable frame', error);
        return;
      }
      switch (frame.op) {
        case OP.HELLO: {
          const hello = Hello.safeParse(frame.d);
          if (!hello.success) return void ws.close(CLOSE_TO_RESUME, 'bad hello');
          const every = hello.data.heartbeat_interval;
          clearInterval(this.heartbeat);
          // The first beat after a random part of the interval (Discord asks for the jitter),
          // then one every interval; each must be acknowledged before the next.
          const first = setTimeout(() => {
            if (ws !== this.ws) return;
            beat();
            acked = false;
            this.heartbeat = setInterval(() => {
              if (!acked) {
                this.d.log('discord gateway: no heartbeat ACK, reconnecting');
                // terminate: no close frame, so the session stays resumable.
                return void ws.terminate();
              }
              acked = false;
              beat();
            }, every);
          }, every * Math.random());
          this.heartbeat = first;
          this.identifyOrResume(ws);
          return;
        }
        case OP.HEARTBEAT_ACK:
          acked = true;
          return;
        case OP.HEARTBEAT:
          return beat();
        case OP.RECONNECT:
          return void ws.close(CLOSE_TO_RESUME, 'reconnect asked');
        case OP.INVALID_SESSION:
          // d: whether the session may be resumed; if not, identify afresh.
          if (frame.d !== true) {
            this.session = undefined;
            this.seq = null;
          }
          return void ws.close(frame.d === true ? CLOSE_TO_RESUME : 1000, 'invalid session');
        case OP.DISPATCH:
          if (typeof frame.s === 'number') this.seq = frame.s;
          return this.dispatch(frame.t ?? '', frame.d);
      }
    });
    ws.on('error', (error) => this.d.log('discord gateway', error));
    ws.on('close', (code: number, reason: Buffer) => {
      clearInterval(this.heartbeat);
      clearTimeout(this.heartbeat);
      if (ws !== this.ws || this.stopped) return;
      this.ws = undefined;
      const fatal = FATAL_CLOSE.get(code);
      if (fatal || SESSION_LOST.has(code)) {
        this.session = undefined;
        this.seq = null;
      }
      this.failed(
        fatal ??
          `connection closed (${code}${reason.length ? ` ${String(reason).slice(0, 100)}` : ''})`,
        fatal !== undefined,
      );
    });
  }

  private identifyOrResume(ws: WebSocket): void {
    const payload = this.session
      ? { op: OP.RESUME, d: { token: this.d.token, session_id: this.session.id, seq: this.seq } }
      : {
          op: OP.IDENTIFY,
          d: {
            token: this.d.token,
            intents: this.d.intents,
            properties: { os: process.platform, browser: 'gatehouse', device: 'gatehouse' },
          },
        };
    ws.send(JSON.stringify(payload));
  }

  private dispatch(type: string, data: unknown): void {
    if (type === 'READY') {
      const ready = Ready.safeParse(data);
      if (ready.success)
        this.session = { id: ready.data.session_id, resumeUrl: ready.data.resume_gateway_url };
    }
    if (type === 'READY' || type === 'RESUMED') {
      this.failures = 0;
      this.d.onState({ connected: true });
      return;
    }
    this.chain = this.chain
      .then(() => this.d.onDispatch(type, data))
      .catch((error: unknown) => this.d.log(`discord gateway: ${type}`, error));
  }

  private failed(error: string, fatal = false, askedS?: number): void {
    if (this.stopped) return;
    this.failures++;
    // One drop that the next connection mends (Discord asks for reconnects routinely) is not
    // a failure of the channel; a refused token, or a reconnect that fails too, is.
    if (fatal || this.failures > 1)
      this.d.onState({ connected: false, error: `discord gateway: ${error}` });
    const initial = this.d.initialBackoffMs ?? 1_000;
    const wait = fatal
      ? MAX_BACKOFF_MS
      : askedS !== undefined
        ? Math.min(askedS * 1000, MAX_BACKOFF_MS * 4)
        : backoffDelay(this.failures, initial, MAX_BACKOFF_MS) * (0.75 + Math.random() / 2);
    this.d.log(`discord gateway: ${error}; reconnecting in ${Math.round(wait)} ms`);
    this.retry = setTimeout(() => void this.connect(), wait);
  }
}

function rawText(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return Buffer.from(raw as ArrayBuffer).toString('utf8');
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}
