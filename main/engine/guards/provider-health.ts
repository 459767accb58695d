import type { Verdict } from '../../../shared/domain';
import type { Clock } from '../../../shared/clock';
import {
  CircuitBreaker,
  type CircuitSnapshot,
  type StateChangeListener,
} from '../../../shared/circuit-breaker';
import { minutes, tripped } from './verdict';

export type ProviderErrorClass = 'payment' | 'auth' | 'rateLimit' | 'transient';
const CLASSES: readonly ProviderErrorClass[] = ['payment', 'auth', 'rateLimit', 'transient'];

export type ProviderPolicy = Record<ProviderErrorClass, { threshold: number; cooldownMs: number }>;

const REASONS: Record<ProviderErrorClass, string> = {
  payment: 'PROVIDER_PAYMENT_REQUIRED',
  auth: 'PROVIDER_AUTH_FAILED',
  rateLimit: 'PROVIDER_RATE_LIMITED',
  transient: 'PROVIDER_UNAVAILABLE',
};
const ADVICE: Record<ProviderErrorClass, string> = {
  payment: 'top up the credits or switch provider',
  auth: 'fix the API key or permissions',
  rateLimit: 'slow down or switch provider',
  transient: 'switch provider or wait',
};

const BRACKET = /^\s*\[(\d{3})\]/;
const LABELLED =
  /\b(?:status(?:\s*code)?|http(?:\/\d(?:\.\d)?)?|error(?:\s*code)?)\s*[:=]?\s*(\d{3})\b/i;
const LEADING = /^\s*(\d{3})\b/;

/**
 * The HTTP status of a failed call: `httpStatus` when given, else read from the message
 * (`[402] ...`, `status 429`, `HTTP 503`, `401 Unauthorized`).
 */
export function statusOf(httpStatus?: number, message?: string): number | undefined {
  if (httpStatus !== undefined) return httpStatus;
  if (!message) return undefined;
  const m = BRACKET.exec(message) ?? LABELLED.exec(message) ?? LEADING.exec(message);
  const status = m ? Number(m[1]) : NaN;
  return status >= 400 && status <= 599 ? status : undefined;
}

/** The error class of a status; anything unrecognised is the conservative transient class. */
export function errorClassOf(status?: number): ProviderErrorClass {
  if (status === 402) return 'payment';
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rateLimit';
  return 'transient';
}

export interface ProviderSnapshot {
  classes: Partial<Record<ProviderErrorClass, CircuitSnapshot>>;
  lastStatus?: number | undefined;
}

interface ProviderEntry {
  breakers: Record<ProviderErrorClass, CircuitBreaker>;
  lastStatus?: number | undefined;
}

/**
 * Provider health by error class (seed 002): a payment or auth failure opens at once, rate
 * limits and server errors need a streak. A success resets the streak but never shortens a
 * cooldown that is already running. Each class is a timer-driven three-state breaker, so an
 * open provider turns half-open by itself and one successful probe closes it.
 */
export class ProviderHealth {
  private readonly providers = new Map<string, ProviderEntry>();

  constructor(
    private readonly clock: Clock,
    private readonly policy: () => ProviderPolicy,
    private readonly onStateChange?: StateChangeListener,
  ) {}

  /** Verdicts for a call about to go to `provider`: tripped while any class is open. */
  check(provider: string): Verdict[] {
    const entry = this.providers.get(provider);
    if (!entry) return [];
    for (const cls of CLASSES) {
      const breaker = entry.breakers[cls];
      const state = breaker.getState();
      if (state === 'closed') continue;
      if (state === 'half_open' && breaker.tryAcquire()) continue;
      return [this.verdictOf(provider, cls, entry)];
    }
    return [];
  }

  /** Records a failed call; returns a verdict when this failure opened the provider. */
  recordFailure(provider: string, status?: number, message?: string): Verdict[] {
    const entry = this.entry(provider);
    const cls = errorClassOf(status);
    entry.lastStatus = status;
    const breaker = entry.breakers[cls];
    const before = breaker.getState();
    breaker.recordFailure(message ?? (status ? `HTTP ${status}` : 'error'));
    return before !== 'open' && breaker.getState() === 'open'
      ? [this.verdictOf(provider, cls, entry)]
      : [];
  }

  /** Records a successful call; returns whether anything changed (a streak broken, a probe passed). */
  recordSuccess(provider: string): boolean {
    const entry = this.providers.get(provider);
    if (!entry) return false;
    let changed = false;
    for (const cls of CLASSES) {
      const breaker = entry.breakers[cls];
      const state = breaker.getState();
      if (state === 'closed') {
        changed ||= breaker.stats().failures > 0;
        breaker.clearFailures();
      } else if (state === 'half_open') {
        breaker.recordSuccess();
        changed = true;
      }
      // open: the cooldown runs its course.
    }
    return changed;
  }

  isOpen(provider: string): boolean {
    const entry = this.providers.get(provider);
    return !!entry && CLASSES.some((c) => entry.breakers[c].getState() === 'open');
  }

  reset(provider: string): boolean {
    const entry = this.providers.get(provider);
    if (!entry) return false;
    for (const cls of CLASSES) entry.breakers[cls].reset();
    return true;
  }

  snapshot(provider: string): ProviderSnapshot | undefined {
    const entry = this.providers.get(provider);
    if (!entry) return undefined;
    const classes: ProviderSnapshot['classes'] = {};
    for (const cls of CLASSES) {
      const snap = entry.breakers[cls].snapshot();
      if (snap.state !== 'closed' || snap.failures.length || snap.totalTrips) classes[cls] = snap;
    }
    return { classes, lastStatus: entry.lastStatus };
  }

  restore(provider: string, snap: ProviderSnapshot): void {
    const entry = this.entry(provider);
    entry.lastStatus = snap.lastStatus;
    for (const cls of CLASSES) {
      const s = snap.classes[cls];
      if (s) entry.breakers[cls].restore(s);
    }
  }

  /** One row per known provider, for `guards.breakers`. */
  list(): {
    provider: string;
    state: Verdict['state'];
    errorClass?: ProviderErrorClass | undefined;
    failures: number;
    threshold: number;
    retryInMs: number;
    totalTrips: number;
    lastStatus?: number | undefined;
  }[] {
    return [...this.providers].map(([provider, entry]) => {
      const stats = CLASSES.map((cls) => ({ cls, ...entry.breakers[cls].stats() }));
      const worst =
        stats.find((s) => s.state === 'open') ??
        stats.find((s) => s.state === 'half_open') ??
        stats.reduce((a, b) => (b.failures > a.failures ? b : a));
      return {
        provider,
        state: worst.state,
        errorClass: worst.state === 'closed' && worst.failures === 0 ? undefined : worst.cls,
        failures: worst.failures,
        threshold: worst.failureThreshold,
        retryInMs: worst.retryInMs,
        totalTrips: stats.reduce((n, s) => n + s.totalTrips, 0),
        lastStatus: entry.lastStatus,
      };
    });
  }

  providerNames(): string[] {
    return [...this.providers.keys()];
  }

  private verdictOf(provider: string, cls: ProviderErrorClass, entry: ProviderEntry): Verdict {
    const breaker = entry.breakers[cls];
    const stats = breaker.stats();
    const threshold = this.policy()[cls].threshold;
    const status = entry.lastStatus ? ` (last status ${entry.lastStatus})` : '';
    const wait =
      stats.state === 'open' ? `retry in ${minutes(stats.retryInMs)}` : 'a probe is in flight';
    return tripped(
      'provider',
      REASONS[cls],
      threshold,
      threshold,
      `Provider ${provider} is cooling down${status}: ${wait}; ${ADVICE[cls]}.`,
      stats.state,
    );
  }

  private entry(provider: string): ProviderEntry {
    let entry = this.providers.get(provider);
    if (!entry) {
      const policy = this.policy();
      const make = (cls: ProviderErrorClass): CircuitBreaker =>
        new CircuitBreaker(
          `provider:${provider}:${cls}`,
          this.clock,
          {
            failureThreshold: policy[cls].threshold,
            // A streak, not a window: only a success breaks it.
            failureWindowMs: Number.MAX_SAFE_INTEGER,
            cooldownMs: policy[cls].cooldownMs,
            halfOpenProbes: 1,
          },
          this.onStateChange,
        );
      entry = {
        breakers: {
          payment: make('payment'),
          auth: make('auth'),
          rateLimit: make('rateLimit'),
          transient: make('transient'),
        },
      };
      this.providers.set(provider, entry);
    }
    return entry;
  }

  /** Drops every timer (shutdown). */
  dispose(): void {
    for (const entry of this.providers.values()) {
      for (const cls of CLASSES) entry.breakers[cls].dispose();
    }
  }

  /** Forgets every provider (before a {@link restore} of all of them from the store). */
  clear(): void {
    this.dispose();
    this.providers.clear();
  }
}
