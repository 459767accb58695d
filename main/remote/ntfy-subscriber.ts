import { z } from 'zod';
import type { Clock, TimerHandle } from '../../shared/clock';
import { backoffDelay } from '../notify/backoff';

/** One line of ntfy's JSON stream (`GET /<topic>/json`); only the fields used here. */
export const NtfyStreamEvent = z.object({
  id: z.string().min(1).max(64),
  time: z.number(),
  event: z.string(),
  topic: z.string().optional(),
  message: z.string().max(16_384).optional(),
});
export type NtfyStreamEvent = z.infer<typeof NtfyStreamEvent>;

/** Where the id of the last message handled is kept, so a restart resumes after it. */
export interface NtfyCursor {
  load(): string | undefined;
  save(id: string): void;
}

export interface NtfySubscriberDeps {
  clock: Clock;
  /** ntfy base URL, e.g. `https://ntfy.sh`. */
  server: string;
  topic: string;
  /** Access token of a protected topic. */
  token?: string;
  /** Called once per message, in order; a rejection is logged and the stream goes on. */
  onMessage: (message: NtfyStreamEvent & { message: string }) => Promise<void> | void;
  cursor?: NtfyCursor;
  /**
   * Where to start when there is no cursor: ntfy's `since` (unix seconds, a duration such as
   * `10m`, or `all`). Default: messages from the last 10 minutes.
   */
  initialSince?: string;
  log: (message: string, error?: unknown) => void;
  fetch?: typeof fetch;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** ntfy sends a keepalive every 45 s; a silent stream for longer than this is reconnected. */
  idleTimeoutMs?: number;
  /** Told after each (re)connection opened, with the `since` it asked for (tests, health). */
  onOpen?: (since: string) => void;
}

/**
 * Follows one ntfy topic over the streaming JSON API, outbound only: reconnects with
 * exponential back-off when the stream ends or fails, and resumes after the last message id it
 * handled (`since=<id>`), so a message published while the connection was down is still seen,
 * once.
 */
export class NtfySubscriber {
  private controller: AbortController | undefined;
  private stopped = true;
  private lastId: string | undefined;
  private failures = 0;
  private retryTimer: TimerHandle | undefined;
  private idleTimer: TimerHandle | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly deps: NtfySubscriberDeps) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.lastId = this.deps.cursor?.load();
    this.connect();
  }

  /** Ends the stream; resolves when the current connection is closed. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.retryTimer?.cancel();
    this.idleTimer?.cancel();
    this.controller?.abort();
    await this.running?.catch(() => undefined);
  }

  private connect(): void {
    if (this.stopped) return;
    const since = this.lastId ?? this.deps.initialSince ?? '10m';
    this.running = this.follow(since).then(
      () => this.retry(undefined),
      (error: unknown) => this.retry(error),
    );
  }

  private retry(error: unknown): void {
    this.idleTimer?.cancel();
    if (this.stopped) return;
    this.failures += 1;
    const wait = backoffDelay(
      this.failures,
      this.deps.initialBackoffMs ?? 1_000,
      this.deps.maxBackoffMs ?? 60_000,
    );
    this.deps.log(
      `ntfy reply topic: stream ${error === undefined ? 'ended' : 'failed'}, reconnecting in ${wait} ms`,
      error,
    );
    this.retryTimer = this.deps.clock.setTimer(wait, () => this.connect());
  }

  private armIdle(): void {
    this.idleTimer?.cancel();
    const ms = this.deps.idleTimeoutMs ?? 120_000;
    this.idleTimer = this.deps.clock.setTimer(ms, () => this.controller?.abort());
  }

  private async follow(since: string): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    const url = `${this.deps.server.replace(/\/+$/, '')}/${encodeURIComponent(this.deps.topic)}/json?since=${encodeURIComponent(since)}`;
    const res = await (this.deps.fetch ?? fetch)(url, {
      headers: this.deps.token ? { Authorization: `Bearer ${this.deps.token}` } : {},
      signal: controller.signal,
    });
    if (!res.ok || !res.body) {
      await res.arrayBuffer().catch(() => undefined);
      throw new Error(`ntfy answered HTTP ${res.status} to the subscription`);
    }
    this.armIdle();
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        this.armIdle();
        buffer += decoder.decode(value, { stream: true });
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).trim();
          buffer = buffer.slice(newline + 1);
          if (line) await this.onLine(line, since);
        }
        // A line longer than any message ntfy sends is not ntfy: drop the connection.
        if (buffer.length > 64 * 1024) throw new Error('ntfy stream line too long');
      }
    } finally {
      reader.releaseLock();
      controller.abort();
    }
  }

  private async onLine(line: string, since: string): Promise<void> {
    let parsed: NtfyStreamEvent;
    try {
      parsed = NtfyStreamEvent.parse(JSON.parse(line));
    } catch (error) {
      this.deps.log('ntfy reply topic: ignored a line that is not an ntfy event', error);
      return;
    }
    if (parsed.event === 'open') {
      this.failures = 0;
      this.deps.onOpen?.(since);
      return;
    }
    if (parsed.event !== 'message') return; // keepalive, poll_request, message_delete …
    this.lastId = parsed.id;
    try {
      await this.deps.onMessage({ ...parsed, message: parsed.message ?? '' });
    } catch (error) {
      this.deps.log('ntfy reply topic: handling a message failed', error);
    }
    this.deps.cursor?.save(parsed.id);
  }
}
