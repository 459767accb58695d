import type { Clock } from '../../shared/clock';

/**
 * A connection's calls per second: a token bucket holding one second's worth, refilled by the
 * injected clock. A call without a token gets -32004 (or, sent as a notification, is dropped).
 */
export class CallRate {
  private tokens: number;
  private lastRefill: number;

  constructor(
    private readonly perSecond: number,
    private readonly clock: Clock,
  ) {
    this.tokens = perSecond;
    this.lastRefill = clock.now();
  }

  /** Takes one call's token; false when the connection is over its rate. */
  take(): boolean {
    const now = this.clock.now();
    const rate = this.perSecond;
    this.tokens = Math.min(rate, this.tokens + ((now - this.lastRefill) / 1000) * rate);
    this.lastRefill = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /**
   * Milliseconds until the next token, right after {@link take} refused one: what a refused
   * agent is told to wait before it sends again (at least 1).
   */
  msUntilNextToken(): number {
    return Math.max(1, Math.ceil(((1 - this.tokens) / this.perSecond) * 1000));
  }
}
