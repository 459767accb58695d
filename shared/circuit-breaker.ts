import type { Clock, TimerHandle } from './clock';
import type { Verdict } from './domain';

/** Where a breaker stands, as a {@link Verdict} reports it. */
export type BreakerState = Verdict['state'];

/** Configuration of a {@link CircuitBreaker}; defaults from seed 002. */
export interface CircuitBreakerConfig {
  /** Failures within `failureWindowMs` that open the circuit (5). */
  failureThreshold: number;
  failureWindowMs: number;
  /** Time open before probing (30 s). */
  cooldownMs: number;
  /** Probe calls admitted in half-open; all must succeed to close (2). */
  halfOpenProbes: number;
  /** A probe that reports nothing for this long frees its slot (defaults to `cooldownMs`). */
  probeTimeoutMs?: number;
}

export const DEFAULT_CIRCUIT: CircuitBreakerConfig = {
  failureThreshold: 5,
  failureWindowMs: 60_000,
  cooldownMs: 30_000,
  halfOpenProbes: 2,
};

/** What a breaker persists so that it survives a restart. Times are epoch ms. */
export interface CircuitSnapshot {
  state: BreakerState;
  /** Failure times still inside the window (closed state). */
  failures: number[];
  openedAt?: number;
  /** When an open circuit turns half-open. */
  retryAt?: number;
  totalTrips: number;
  lastError?: string;
}

export type StateChangeListener = (from: BreakerState, to: BreakerState, name: string) => void;

const V8Error = Error as ErrorConstructor & { stackTraceLimit?: number | undefined };

/** Thrown (as a rejection) by {@link CircuitBreaker.execute} while the circuit is open. */
export class CircuitOpenError extends Error {
  readonly code = 'CIRCUIT_OPEN';
  constructor(
    readonly breaker: string,
    readonly retryInMs: number,
  ) {
    // A refusal is expected control flow, raised at the rate a looping caller retries: the
    // stack would only show this file, and capturing it costs two thirds of an open call.
    // (`stackTraceLimit` is V8's; elsewhere setting it does nothing.)
    const limit = V8Error.stackTraceLimit;
    V8Error.stackTraceLimit = 0;
    super(`circuit ${breaker} is open; retry in ${retryInMs} ms`);
    V8Error.stackTraceLimit = limit;
    this.name = 'CircuitOpenError';
  }
}

/**
 * A three-state circuit breaker (closed → open → half-open → closed). Transitions out of
 * `open` are driven by a clock timer, so a circuit never sticks open because nobody called
 * it; `snapshot()` / `restore()` carry the state across a restart, and a circuit restored
 * open still times into half-open.
 *
 * Use `execute(fn)` around an async call, or `tryAcquire()` + `recordSuccess()` /
 * `recordFailure()` when the call and its result arrive separately (the daemon's `check`
 * and `outcome`).
 */
export class CircuitBreaker {
  private state: BreakerState = 'closed';
  private failures: number[] = [];
  private openedAt = 0;
  private retryAt = 0;
  private totalTrips = 0;
  private lastError: string | undefined;
  /** Start times of admitted half-open probes that have not reported yet. */
  private probes: number[] = [];
  private probeSuccesses = 0;
  private timer: TimerHandle | undefined;
  private readonly config: CircuitBreakerConfig;

  constructor(
    readonly name: string,
    private readonly clock: Clock,
    config: Partial<CircuitBreakerConfig> = {},
    private readonly onStateChange?: StateChangeListener,
  ) {
    this.config = { ...DEFAULT_CIRCUIT, ...config };
  }

  /** The current state; an open circuit whose cooldown passed reports half-open. */
  getState(): BreakerState {
    if (this.state === 'open' && this.clock.now() >= this.retryAt) this.toHalfOpen();
    return this.state;
  }

  /** Milliseconds until an open circuit starts probing; 0 otherwise. */
  retryInMs(): number {
    return this.state === 'open' ? Math.max(0, this.retryAt - this.clock.now()) : 0;
  }

  /**
   * Asks to pass one call. Closed: always. Open: never. Half-open: while fewer than
   * `halfOpenProbes` probes are admitted; concurrent callers beyond that are refused.
   */
  tryAcquire(): boolean {
    if (this.state === 'closed') return true;
    if (this.getState() !== 'half_open') return false;
    const timeout = this.config.probeTimeoutMs ?? this.config.cooldownMs;
    const now = this.clock.now();
    // A probe whose caller vanished must not hold its slot forever.
    if (this.probes.length && now - this.probes[0]! >= timeout) {
      this.probes = this.probes.filter((t) => now - t < timeout);
    }
    if (this.probes.length + this.probeSuccesses >= this.config.halfOpenProbes) return false;
    this.probes.push(now);
    return true;
  }

  /** Reports a successful call. In half-open, enough successful probes close the circuit. */
  recordSuccess(): void {
    if (this.state !== 'half_open') return;
    this.probes.shift();
    this.probeSuccesses++;
    if (this.probeSuccesses >= this.config.halfOpenProbes) this.transition('closed');
  }

  /** Reports a failed call. A failure in half-open reopens at once. */
  recordFailure(error?: string): void {
    if (error !== undefined) this.lastError = error;
    const now = this.clock.now();
    if (this.state === 'open') return;
    if (this.state === 'half_open') {
      this.open(now);
      return;
    }
    const failures = this.failures;
    failures.push(now);
    const since = now - this.config.failureWindowMs;
    while (failures.length && failures[0]! <= since) failures.shift();
    if (failures.length >= this.config.failureThreshold) this.open(now);
  }

  /** Runs `fn` through the breaker; rejects with {@link CircuitOpenError} when refused. */
  execute<T>(fn: () => Promise<T>): Promise<T> {
    if (this.state !== 'closed' && !this.tryAcquire()) {
      return Promise.reject(new CircuitOpenError(this.name, this.retryInMs()));
    }
    let pending: Promise<T>;
    try {
      pending = fn();
    } catch (error) {
      this.recordFailure(error instanceof Error ? error.message : String(error));
      return Promise.reject(error);
    }
    return pending.then(this.onSuccess as (v: T) => T, this.onFailure);
  }

  // Bound once so that `execute` allocates no closures on the hot path.
  private readonly onSuccess = <T>(value: T): T => {
    this.recordSuccess();
    return value;
  };
  private readonly onFailure = (error: unknown): never => {
    this.recordFailure(error instanceof Error ? error.message : String(error));
    throw error;
  };

  /** Forgets counted failures without changing state (a streak broken by a success). */
  clearFailures(): void {
    this.failures = [];
  }

  /** Opens the circuit by hand (a kill switch for this breaker). */
  trip(reason?: string): void {
    if (reason !== undefined) this.lastError = reason;
    this.open(this.clock.now());
  }

  /** Closes the circuit by hand and forgets its failures. */
  reset(): void {
    this.failures = [];
    this.transition('closed');
  }

  stats(): {
    name: string;
    state: BreakerState;
    failures: number;
    failureThreshold: number;
    totalTrips: number;
    retryInMs: number;
    lastError?: string | undefined;
  } {
    return {
      name: this.name,
      state: this.getState(),
      failures: this.failures.length,
      failureThreshold: this.config.failureThreshold,
      totalTrips: this.totalTrips,
      retryInMs: this.retryInMs(),
      lastError: this.lastError,
    };
  }

  snapshot(): CircuitSnapshot {
    const snap: CircuitSnapshot = {
      state: this.state,
      failures: [...this.failures],
      totalTrips: this.totalTrips,
    };
    if (this.state !== 'closed') snap.openedAt = this.openedAt;
    if (this.state === 'open') snap.retryAt = this.retryAt;
    if (this.lastError !== undefined) snap.lastError = this.lastError;
    return snap;
  }

  /**
   * Restores a snapshot taken before a restart. An open circuit re-arms its timer for the
   * time left, or turns half-open at once if its cooldown passed while nobody was running.
   * Probes in flight at the restart are forgotten: their callers are gone.
   */
  restore(snap: CircuitSnapshot): void {
    this.timer?.cancel();
    this.timer = undefined;
    const now = this.clock.now();
    this.totalTrips = snap.totalTrips;
    this.lastError = snap.lastError;
    this.failures = snap.failures.filter((t) => t > now - this.config.failureWindowMs);
    this.probes = [];
    this.probeSuccesses = 0;
    this.openedAt = snap.openedAt ?? 0;
    this.state = snap.state;
    if (snap.state === 'open') {
      this.retryAt = snap.retryAt ?? now;
      if (this.retryAt <= now) this.toHalfOpen();
      else this.arm(this.retryAt - now);
    }
  }

  /** Cancels the pending timer (the breaker is being dropped). */
  dispose(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  private open(now: number): void {
    this.openedAt = now;
    this.retryAt = now + this.config.cooldownMs;
    this.totalTrips++;
    this.failures = [];
    this.transition('open');
    this.arm(this.config.cooldownMs);
  }

  private arm(ms: number): void {
    this.timer?.cancel();
    this.timer = this.clock.setTimer(ms, () => {
      this.timer = undefined;
      if (this.state === 'open') this.toHalfOpen();
    });
  }

  private toHalfOpen(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.transition('half_open');
  }

  private transition(to: BreakerState): void {
    const from = this.state;
    this.state = to;
    this.probes = [];
    this.probeSuccesses = 0;
    if (to !== 'open') this.retryAt = 0;
    if (to === 'closed') this.timer?.cancel();
    if (from !== to) this.onStateChange?.(from, to, this.name);
  }
}
