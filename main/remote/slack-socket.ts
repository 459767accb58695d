import { WebSocket } from 'ws';
import { z } from 'zod';
import type { Clock } from '../../shared/clock';
import { backoffDelay, waitOn } from '../notify/backoff';
import { SlackApiError, type SlackApi } from '../notify/slack-api';
import type { WayBackReport } from './chat-way-back-health';

/** Whether the socket is connected now, and why not. */
/**
 * Whether Gatehouse connects to the URL `apps.connections.open` gave: `wss:` only (the
 * presses, and who pressed, travel over it), or `ws:` when the Web API itself is plain HTTP (a
 * local test server, where nothing is encrypted anyway).
 */
export function socketUrlAllowed(url: string, apiBase: string): boolean {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return false;
  }
  return protocol === 'wss:' || (protocol === 'ws:' && apiBase.toLowerCase().startsWith('http:'));
}

/** The socket's state, for the channel's health (main/remote/chat-way-back-health.ts). */
export type SlackSocketState = WayBackReport;

const MAX_BACKOFF_MS = 30_000;
/** Slack's deadline to acknowledge an envelope is 3 s; a slow decision is acknowledged at 2 s. */
const ACK_WITHIN_MS = 2_000;
/** Pings this often; a connection that answered nothing since the last ping is dropped. */
const PING_INTERVAL_MS = 30_000;

/**
 * One Socket Mode frame (docs.slack.dev/apis/events-api/using-socket-mode): `hello` once
 * connected, `disconnect` when Slack wants a fresh connection (`refresh_requested`, `warning`,
 * `link_disabled`), and envelopes (`interactive`, `events_api`, `slash_commands`) each with an
 * `envelope_id` to acknowledge and a `retry_attempt` when Slack delivers it again.
 */
const Frame = z.object({
  type: z.string(),
  envelope_id: z.string().max(200).optional(),
  payload: z.unknown().optional(),
  retry_attempt: z.number().int().optional(),
  reason: z.string().optional(),
});

/**
 * Slack's way back, outbound only: Socket Mode. `apps.connections.open` (app-level token)
 * names a WebSocket URL; Gatehouse connects to it (no inbound port, no request URL), waits
 * for `hello`, and hands each `interactive` envelope to `onInteractive`, acknowledging it by
 * its `envelope_id` once handled (or after 2 s, inside Slack's 3 s). An envelope not
 * acknowledged (the connection dropped mid-press) is delivered again by Slack on the next
 * connection, with `retry_attempt`; `onInteractive` handles a press once however often it
 * comes. A `disconnect` is answered with a fresh connection at once; errors and drops back
 * off, doubling to 30 s, or wait what a 429 asks. A URL that is not `wss:` is refused unless
 * the Web API itself is plain HTTP (a local test server).
 */
export class SlackSocket {
  private abort: AbortController | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly d: {
      api: SlackApi;
      apiBase: () => string;
      clock: Clock;
      onInteractive: (payload: unknown) => Promise<void>;
      onState?: (state: SlackSocketState) => void;
      log: (message: string, error?: unknown) => void;
      initialBackoffMs?: number;
      pingIntervalMs?: number;
    },
  ) {}

  start(): void {
    if (this.loop) return;
    const abort = new AbortController();
    this.abort = abort;
    this.loop = this.run(abort.signal);
  }

  async stop(): Promise<void> {
    this.abort?.abort();
    await this.loop;
    this.loop = undefined;
    this.abort = undefined;
  }

  private async run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      let asked: number | undefined;
      try {
        const url = await this.d.api.connectionsOpen(signal);
        this.checkUrl(url);
        const ended = await this.session(url, signal);
        if (ended.hello) failures = 0;
        if (ended.refresh) continue;
        failures++;
        this.d.onState?.({ connected: false, error: 'connection closed' });
      } catch (error) {
        if (signal.aborted) return;
        failures++;
        asked = error instanceof SlackApiError ? error.retryAfterS : undefined;
        const why = error instanceof Error ? error.message : String(error);
        this.d.onState?.({ connected: false, error: why.slice(0, 200) });
        this.d.log('slack socket mode', error);
      }
      if (signal.aborted) return;
      const wait =
        asked !== undefined
          ? Math.min(asked * 1000, MAX_BACKOFF_MS * 4)
          : backoffDelay(failures, this.d.initialBackoffMs ?? 1_000, MAX_BACKOFF_MS);
      await Promise.race([
        waitOn(this.d.clock, wait),
        new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true })),
      ]);
    }
  }

  private checkUrl(url: string): void {
    if (!socketUrlAllowed(url, this.d.apiBase()))
      throw new Error('slack apps.connections.open gave a URL that is not wss:; not connecting');
  }

  /** One connection, until it closes: whether `hello` came, and whether Slack asked to refresh. */
  private session(url: string, signal: AbortSignal): Promise<{ hello: boolean; refresh: boolean }> {
    return new Promise((resolve) => {
      const ws = new WebSocket(url, { handshakeTimeout: 10_000, maxPayload: 1024 * 1024 });
      let hello = false;
      let refresh = false;
      let heard = true;
      const onAbort = (): void => ws.close(1000, 'leaving');
      signal.addEventListener('abort', onAbort, { once: true });
      const ping = setInterval(() => {
        if (ws.readyState !== WebSocket.OPEN) return;
        if (!heard) return ws.terminate();
        heard = false;
        ws.ping();
      }, this.d.pingIntervalMs ?? PING_INTERVAL_MS);
      ping.unref();
      ws.on('pong', () => (heard = true));
      ws.on('message', (data) => {
        heard = true;
        let frame: z.infer<typeof Frame>;
        try {
          frame = Frame.parse(JSON.parse(String(data)));
        } catch (error) {
          return this.d.log('slack socket mode: unreadable frame', error);
        }
        if (frame.type === 'hello') {
          hello = true;
          this.d.onState?.({ connected: true });
        } else if (frame.type === 'disconnect') {
          refresh = true;
          ws.close(1000, 'refresh');
        } else if (frame.envelope_id) void this.envelope(ws, frame, frame.envelope_id);
      });
      ws.on('error', (error) => this.d.log('slack socket mode connection', error));
      ws.on('close', () => {
        clearInterval(ping);
        signal.removeEventListener('abort', onAbort);
        resolve({ hello, refresh });
      });
    });
  }

  /** Handles an envelope, then acknowledges it (at 2 s at the latest, within Slack's 3 s). */
  private async envelope(
    ws: WebSocket,
    frame: z.infer<typeof Frame>,
    envelopeId: string,
  ): Promise<void> {
    const handled =
      frame.type === 'interactive'
        ? this.d.onInteractive(frame.payload).catch((e: unknown) => this.d.log('slack press', e))
        : Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      handled,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, ACK_WITHIN_MS))),
    ]);
    clearTimeout(timer);
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ envelope_id: envelopeId }));
  }
}
