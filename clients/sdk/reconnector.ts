import { ConnectionError } from './rpc-client';

export interface ReconnectOptions {
  /**
   * How long a call waits for a lost connection to come back before it fails closed
   * (default 5 s: long enough for a daemon restart, short enough for an agent to go on).
   */
  reconnectWaitMs?: number;
  /** The longest pause between two connection attempts (default 5 s). */
  maxBackoffMs?: number;
}

const FIRST_BACKOFF_MS = 100;

/**
 * Keeps trying to open a connection with exponential back-off and jitter, and lets calls
 * wait for the next success. The back-off timers are unref'd: a client that is only
 * reconnecting never keeps its process alive; a call waiting for the connection does.
 */
export class Reconnector {
  private timer?: NodeJS.Timeout | undefined;
  private backoffMs = FIRST_BACKOFF_MS;
  private attempt?: Promise<boolean> | undefined;
  private stopped = false;
  private waiters: (() => void)[] = [];
  private readonly waitMs: number;
  private readonly maxBackoffMs: number;

  constructor(
    private readonly open: () => Promise<void>,
    o: ReconnectOptions,
  ) {
    this.waitMs = o.reconnectWaitMs ?? 5_000;
    this.maxBackoffMs = o.maxBackoffMs ?? 5_000;
  }

  /** Plans the next attempt after the current back-off (once; later calls do nothing). */
  schedule(): void {
    if (this.stopped || this.timer || this.attempt) return;
    const jitter = Math.random() * this.backoffMs * 0.2;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.tryNow();
    }, this.backoffMs + jitter);
    this.timer.unref();
    this.backoffMs = Math.min(this.backoffMs * 2, this.maxBackoffMs);
  }

  /** Called by the client once a connection said hello: resets the back-off, wakes callers. */
  connected(): void {
    this.backoffMs = FIRST_BACKOFF_MS;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /**
   * Waits until a connection is back, trying at once; rejects with `cause` when none is
   * back within the wait (the caller then fails closed).
   */
  async waitForConnection(cause: ConnectionError): Promise<void> {
    if (this.stopped) throw cause;
    const back = new Promise<boolean>((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      // Not unref'd: a call is waiting, so the process must live until it settles. An agent
      // whose only work is `await gh.request(…)` (the README's example) otherwise had
      // nothing keeping Node alive after its daemon died, and exited with code 13 (an
      // unsettled top-level await) instead of getting its answer.
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== wake);
        resolve(false);
      }, this.waitMs);
      this.waiters.push(wake);
    });
    void this.tryNow();
    if (!(await back)) {
      throw new ConnectionError(
        `${cause.message}; no connection to Gatehouse within ${this.waitMs} ms`,
        cause,
      );
    }
  }

  /**
   * One attempt now (joining one under way); rejects with `cause` when it fails. For a
   * client that never reached Gatehouse: there is no restart to wait for, so it fails closed
   * at once instead of after the wait.
   */
  async tryOnce(cause: ConnectionError): Promise<void> {
    if (this.stopped || !(await this.tryNow())) throw cause;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Tries to connect now, joining an attempt under way; resolves whether it worked. */
  private tryNow(): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.attempt ??= this.open().then(
      () => {
        this.attempt = undefined;
        return true;
      },
      () => {
        this.attempt = undefined;
        this.schedule();
        return false;
      },
    );
    return this.attempt;
  }
}
