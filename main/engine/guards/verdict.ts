import type { Verdict } from '../../../shared/domain';

export type BreakerState = Verdict['state'];

/** A guard that stops the agent: `allowed: false` on `check`. */
export function tripped(
  breaker: string,
  reason: string,
  current: number,
  threshold: number,
  suggestion?: string,
  state: BreakerState = 'open',
): Verdict {
  return { breaker, state, tripped: true, warning: false, reason, current, threshold, suggestion };
}

/** A guard that has something to say but does not stop the agent. */
export function warning(
  breaker: string,
  reason: string,
  current: number,
  threshold: number,
  suggestion?: string,
  state: BreakerState = 'closed',
): Verdict {
  return { breaker, state, tripped: false, warning: true, reason, current, threshold, suggestion };
}

/** `current` at or above `pct` percent of `limit` (a limit of 0 is off and never warns). */
export const atWarnLevel = (current: number, limit: number, pct: number): boolean =>
  limit > 0 && current >= (limit * pct) / 100;

/** Dollars as people read them: `$1.23`, or four decimals under a cent. */
export const usd = (amount: number): string =>
  `$${Math.abs(amount) < 0.01 && amount !== 0 ? amount.toFixed(4) : amount.toFixed(2)}`;

export const minutes = (ms: number): string => {
  const m = ms / 60_000;
  return m >= 1 ? `${Math.round(m * 10) / 10} min` : `${Math.ceil(ms / 1000)} s`;
};
