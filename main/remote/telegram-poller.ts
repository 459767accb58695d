import type { Clock } from '../../shared/clock';
import type { WayBackReport } from './chat-way-back-health';
import { backoffDelay, waitOn } from '../notify/backoff';
import { TelegramApiError, type TelegramApi, type TelegramUpdate } from '../notify/telegram-api';

/** Where the update stream resumes: the next `update_id` wanted (kept in the store). */
export interface TelegramCursor {
  read(): number | undefined;
  write(offset: number): void;
}

const MAX_BACKOFF_MS = 30_000;

/**
 * Telegram's way back, outbound only: `getUpdates` long polling for `callback_query` updates
 * (no webhook, no inbound port). Each update is handled, then the offset past it stored, so a
 * restart (or a dropped poll) resumes after the last handled press; one handled twice after a
 * crash between the two is refused by its spent token. Errors back off, doubling to 30 s, or
 * wait what a 429 asks.
 */
export class TelegramPoller {
  private abort: AbortController | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly d: {
      api: TelegramApi;
      clock: Clock;
      cursor: TelegramCursor;
      onUpdate: (u: TelegramUpdate) => Promise<void>;
      log: (message: string, error?: unknown) => void;
      pollTimeoutS?: number;
      initialBackoffMs?: number;
      /** Told before each poll (tests and benchmarks wait for it). */
      onPoll?: () => void;
      /** Told when polling starts working or fails (a revoked token: 401), for the channel's health. */
      onState?: (state: WayBackReport) => void;
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
    let reported = false;
    while (!signal.aborted) {
      try {
        this.d.onPoll?.();
        const offset = this.d.cursor.read();
        const updates = await this.d.api.getUpdates(
          {
            ...(offset !== undefined ? { offset } : {}),
            // The first poll, and the first after a failure, is answered at once: the
            // channel's health learns that the way back works without a long poll's wait.
            timeout: failures > 0 || !reported ? 0 : (this.d.pollTimeoutS ?? 25),
            allowed_updates: ['callback_query'],
          },
          signal,
        );
        if (failures > 0 || !reported) this.d.onState?.({ connected: true });
        reported = true;
        failures = 0;
        for (const u of updates) {
          if (signal.aborted) return;
          if (offset !== undefined && u.update_id < offset) continue;
          try {
            await this.d.onUpdate(u);
          } catch (error) {
            this.d.log('telegram update', error);
          }
          this.d.cursor.write(u.update_id + 1);
        }
      } catch (error) {
        if (signal.aborted) return;
        failures++;
        this.d.onState?.({
          connected: false,
          error: `getUpdates: ${(error instanceof Error ? error.message : String(error)).slice(0, 200)}`,
        });
        const asked = error instanceof TelegramApiError ? error.retryAfterS : undefined;
        const wait =
          asked !== undefined
            ? Math.min(asked * 1000, MAX_BACKOFF_MS * 4)
            : backoffDelay(failures, this.d.initialBackoffMs ?? 1_000, MAX_BACKOFF_MS);
        this.d.log(`telegram getUpdates failed, retrying in ${wait} ms`, error);
        await Promise.race([
          waitOn(this.d.clock, wait),
          new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true })),
        ]);
      }
    }
  }
}
