/**
 * What one client of the agent socket may hold of the daemon's memory and time, so that a
 * flooding or stalling client is held back and never the others.
 */
export interface SocketLimits {
  /**
   * Replies waiting in our process, once the kernel's socket buffer is full, above which a
   * connection is no longer read until they drain. Every reply under this mark is a call we
   * handled for a client that may never read it, so it is kept at Node's own write high-water
   * mark (16 KiB: a connection is paused when `write()` says stop). Measured with twelve
   * non-reading connections (bench/flood.bench.mjs): at 1 MiB about 150k calls were served and
   * the daemon was busy for seconds; at 64 KiB about 24k calls and 0.3 to 0.8 s; at 16 KiB about
   * 7k calls (~560 each) and 50 ms. A lower value acts as 16 KiB: only then does 'drain' come.
   */
  outputHighWaterBytes: number;
  /** Lines of one connection handled before yielding to the others. */
  maxLinesPerTurn: number;
  /**
   * Lines waiting up to which a connection counts as pipelining "a few" calls: it is served
   * before connections with a deeper backlog (line-scheduler.ts). 32, not 8: at 8, identical
   * agents with 25 calls in flight each flipped between the two groups and the ones that fell
   * behind stayed behind (3.6x apart). A flood is one read's worth, hundreds of lines.
   */
  shallowLines: number;
  /** Time spent handling lines before yielding to input (new calls get in between). */
  turnBudgetMs: number;
  /**
   * Of which connections with a deep backlog get at most this much: while a client pipelines
   * thousands of calls, an agent's call waits for at most this much of its work.
   */
  deepTurnBudgetMs: number;
  /** How long a line may stay unfinished before the connection is closed. */
  lineTimeoutMs: number;
  /** How long a new connection may go without `hello` (or `auth`) before it is closed. */
  helloTimeoutMs: number;
  /** Bytes of unfinished lines held for all connections together. */
  maxBufferedBytes: number;
  /**
   * Failed `auth` attempts: sustained rate and burst, for all connections together and, once
   * those are used up (a flood), for each peer process on its own (peer-auth-throttle.ts).
   */
  authFailuresPerSecond: number;
  authFailureBurst: number;
  /** `await` calls waiting at once on one connection, and for one session (call-budget.ts). */
  maxAwaitsPerConnection: number;
  maxAwaitsPerSession: number;
  /** Calls of one connection running at once, answered or sent as notifications. */
  maxCallsInFlight: number;
}

export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  outputHighWaterBytes: 16 * 1024,
  maxLinesPerTurn: 32,
  shallowLines: 32,
  turnBudgetMs: 1,
  deepTurnBudgetMs: 0.1,
  lineTimeoutMs: 30_000,
  helloTimeoutMs: 30_000,
  maxBufferedBytes: 64 * 1024 * 1024,
  authFailuresPerSecond: 2,
  authFailureBurst: 10,
  // A session may have 1,000 requests waiting (requests.maxQueuedPerSession): each may be
  // awaited once; more awaits than that on one session are the same request awaited again.
  maxAwaitsPerConnection: 1024,
  maxAwaitsPerSession: 1024,
  maxCallsInFlight: 2048,
};

/**
 * Test and operator overrides from the environment (`GATEHOUSE_LINE_TIMEOUT_MS`,
 * `GATEHOUSE_HELLO_TIMEOUT_MS`, `GATEHOUSE_MAX_BUFFERED_BYTES`, `GATEHOUSE_MAX_AWAITS_PER_CONNECTION`,
 * `GATEHOUSE_MAX_AWAITS_PER_SESSION`, `GATEHOUSE_MAX_CALLS_IN_FLIGHT`); anything else is the default.
 */
export function socketLimitsFromEnv(env: NodeJS.ProcessEnv): SocketLimits {
  const num = (name: string, fallback: number): number => {
    const v = Number(env[name]);
    return Number.isFinite(v) && v > 0 ? v : fallback;
  };
  const d = DEFAULT_SOCKET_LIMITS;
  return {
    ...d,
    lineTimeoutMs: num('GATEHOUSE_LINE_TIMEOUT_MS', d.lineTimeoutMs),
    helloTimeoutMs: num('GATEHOUSE_HELLO_TIMEOUT_MS', d.helloTimeoutMs),
    maxBufferedBytes: num('GATEHOUSE_MAX_BUFFERED_BYTES', d.maxBufferedBytes),
    maxAwaitsPerConnection: num('GATEHOUSE_MAX_AWAITS_PER_CONNECTION', d.maxAwaitsPerConnection),
    maxAwaitsPerSession: num('GATEHOUSE_MAX_AWAITS_PER_SESSION', d.maxAwaitsPerSession),
    maxCallsInFlight: num('GATEHOUSE_MAX_CALLS_IN_FLIGHT', d.maxCallsInFlight),
  };
}

/** A shared allowance of bytes: `take` fails (taking nothing) when it would be exceeded. */
export class ByteBudget {
  private used = 0;

  constructor(readonly max: number) {}

  get usedBytes(): number {
    return this.used;
  }

  take(n: number): boolean {
    if (this.used + n > this.max) return false;
    this.used += n;
    return true;
  }

  release(n: number): void {
    this.used = Math.max(0, this.used - n);
  }
}
