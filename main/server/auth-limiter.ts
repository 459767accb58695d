/**
 * The global limit on failed `auth` attempts, across all connections: a token bucket that
 * each failure drains. While it is empty no token is even compared (answer -32004), so
 * guessing the admin token runs at `ratePerSecond` at most however many connections try.
 * A correct token is accepted whenever the bucket is not empty.
 */
export class AuthLimiter {
  private tokens: number;
  private last: number;
  private throttled = 0;
  private lastThrottleReport = -Infinity;

  constructor(
    private readonly o: { ratePerSecond: number; burst: number; now?: (() => number) | undefined },
  ) {
    this.tokens = o.burst;
    this.last = this.now();
  }

  private now(): number {
    return this.o.now ? this.o.now() : Date.now();
  }

  /** Whether an attempt may be compared now. */
  mayAttempt(): boolean {
    const now = this.now();
    this.tokens = Math.min(
      this.o.burst,
      this.tokens + ((now - this.last) / 1000) * this.o.ratePerSecond,
    );
    this.last = now;
    return this.tokens >= 1;
  }

  /** True when the bucket has refilled: it is as good as a new one. */
  isFull(): boolean {
    this.mayAttempt();
    return this.tokens >= this.o.burst;
  }

  /** A compared attempt failed. */
  failed(): void {
    this.tokens = Math.max(0, this.tokens - 1);
  }

  /** Seconds until the next attempt may be compared. */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((1 - this.tokens) / this.o.ratePerSecond));
  }

  /**
   * Counts a throttled attempt; returns how many to audit now (at most one audit entry a
   * second, so throttled floods cannot grow the audit log without bound), or 0.
   */
  throttledAttempt(): number {
    this.throttled++;
    const now = this.now();
    if (now - this.lastThrottleReport < 1000) return 0;
    this.lastThrottleReport = now;
    const n = this.throttled;
    this.throttled = 0;
    return n;
  }
}
