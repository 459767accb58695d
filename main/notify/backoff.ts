import type { Clock } from '../../shared/clock';
import type { NotifyLogger } from './types';

/** Wait before attempt `attempt + 1` (attempt counts from 1): initial · 2^(attempt−1), capped. */
export const backoffDelay = (attempt: number, initialMs: number, maxMs: number): number =>
  Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt - 1));

/** A wait on the injected clock, so tests move time instead of sleeping. */
export const waitOn = (clock: Clock, ms: number): Promise<void> =>
  new Promise((resolve) => void clock.setTimer(ms, resolve));

export interface RetryPolicy {
  clock: Clock;
  /** Attempts in all, the first included. */
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** Errors that another attempt cannot fix end the loop at once. */
  isPermanent: (error: unknown) => boolean;
  /** How long the far side asked to wait before the next attempt (a 429's retry after), if it did. */
  askedWaitMs?: (error: unknown) => number | undefined;
  log: NotifyLogger;
  label: string;
}

/** Runs `attempt` until it resolves, the error is permanent, or the attempts are used up. */
export async function withRetries<T>(policy: RetryPolicy, attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (policy.isPermanent(error) || n >= policy.maxAttempts) throw error;
      // What the far side asked for is waited in full (up to a few backoff caps): an earlier
      // attempt would be refused again and prolong the limit.
      const asked = policy.askedWaitMs?.(error);
      const wait =
        asked !== undefined
          ? Math.min(asked, policy.maxBackoffMs * 4)
          : backoffDelay(n, policy.initialBackoffMs, policy.maxBackoffMs);
      policy.log(`${policy.label} attempt ${n} failed, retrying in ${wait} ms`, error);
      await waitOn(policy.clock, wait);
    }
  }
}
