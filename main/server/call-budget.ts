import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';

export interface CallBudgetLimits {
  /** `await` calls waiting at once on one connection. */
  maxAwaitsPerConnection: number;
  /** `await` calls waiting at once for one session, over all its connections. */
  maxAwaitsPerSession: number;
  /** Calls of one connection started and not yet finished (waiting for a human, say). */
  maxCallsInFlight: number;
}

/**
 * What calls still running may hold of the daemon, whether or not they are answered.
 * A call that waits (`await`, a `request` that waits for a human) stays in memory until a
 * decision or its timeout and writes no reply meanwhile, so the output backpressure that holds
 * back a flooding client never applies to it; a call sent as a notification (no `id`) writes
 * no reply ever. Both count here alike, and a call beyond a cap is refused with -32004 before
 * it runs (a notification's refusal has nowhere to go: it is dropped, which is all a client
 * that asked for no answer can be told).
 *
 * One budget per socket server: the per-session counts span the session's connections (a
 * session resumed on several connections shares its allowance).
 */
export class CallBudget {
  private readonly awaitsBySession = new Map<string, number>();

  constructor(readonly limits: CallBudgetLimits) {}

  /** A connection's share: its own counts, checked with the session's. */
  forConnection(): ConnectionCalls {
    return new ConnectionCalls(this);
  }

  /** @internal Takes one await of `sessionId`; false when the session is at its cap. */
  takeSessionAwait(sessionId: string): boolean {
    const n = this.awaitsBySession.get(sessionId) ?? 0;
    if (n >= this.limits.maxAwaitsPerSession) return false;
    this.awaitsBySession.set(sessionId, n + 1);
    return true;
  }

  /** @internal */
  releaseSessionAwait(sessionId: string): void {
    const n = (this.awaitsBySession.get(sessionId) ?? 1) - 1;
    if (n <= 0) this.awaitsBySession.delete(sessionId);
    else this.awaitsBySession.set(sessionId, n);
  }

  /** Sessions with an `await` waiting (for tests and status). */
  get sessionsWaiting(): number {
    return this.awaitsBySession.size;
  }
}

/** One connection's calls in flight and awaits waiting. */
export class ConnectionCalls {
  private inFlight = 0;
  private awaits = 0;

  constructor(private readonly budget: CallBudget) {}

  /**
   * Runs `call` (an agent method of this connection, answered or not) within the budget: throws
   * -32004 when the connection or the session is at a cap, and holds the call's place until
   * a promise it returns settles. Synchronous calls take nothing.
   */
  run(method: string, sessionId: string | undefined, call: () => unknown): unknown {
    const { limits } = this.budget;
    if (this.inFlight >= limits.maxCallsInFlight)
      throw new GatehouseError(
        ErrorCode.RateLimited,
        `rate limited: this connection already has ${this.inFlight} calls running (the limit is ${limits.maxCallsInFlight}); wait for their answers first`,
      );
    const isAwait = method === 'await' && sessionId !== undefined;
    if (isAwait) {
      if (this.awaits >= limits.maxAwaitsPerConnection)
        throw new GatehouseError(
          ErrorCode.RateLimited,
          `rate limited: this connection already has ${this.awaits} await calls waiting (the limit is ${limits.maxAwaitsPerConnection})`,
        );
      if (!this.budget.takeSessionAwait(sessionId))
        throw new GatehouseError(
          ErrorCode.RateLimited,
          `rate limited: this session already has ${limits.maxAwaitsPerSession} await calls waiting (the limit per session)`,
        );
    }
    let result: unknown;
    try {
      result = call();
    } catch (error) {
      if (isAwait) this.budget.releaseSessionAwait(sessionId);
      throw error;
    }
    if (!(result instanceof Promise)) {
      if (isAwait) this.budget.releaseSessionAwait(sessionId);
      return result;
    }
    this.inFlight++;
    if (isAwait) this.awaits++;
    const settle = () => {
      this.inFlight--;
      if (isAwait) {
        this.awaits--;
        this.budget.releaseSessionAwait(sessionId);
      }
    };
    result.then(settle, settle);
    return result;
  }
}
