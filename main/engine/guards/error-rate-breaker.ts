import type { Verdict } from '../../../shared/domain';
import { tripped, warning } from './verdict';

export interface ErrorRateConfig {
  enabled: boolean;
  windowMs: number;
  warningRate: number;
  criticalRate: number;
  minEvents: number;
}

/** Per-session sliding window: `[time, 1 if error else 0]`, oldest first. */
export interface ErrorRateState {
  events: [number, 0 | 1][];
}

export const newErrorRateState = (): ErrorRateState => ({ events: [] });

/** The window never holds more than this many outcomes; older ones drop first. */
const MAX_EVENTS = 500;

/** Sliding-window error rate with a warning and a critical level (seed 000). */
export class ErrorRateBreaker {
  constructor(private readonly config: () => ErrorRateConfig) {}

  record(state: ErrorRateState, now: number, ok: boolean): void {
    state.events.push([now, ok ? 0 : 1]);
    if (state.events.length > MAX_EVENTS) state.events.splice(0, state.events.length - MAX_EVENTS);
  }

  /** Errors and total outcomes inside the window (prunes older ones). */
  window(state: ErrorRateState, now: number): { errors: number; total: number } {
    const since = now - this.config().windowMs;
    let drop = 0;
    while (drop < state.events.length && state.events[drop]![0] <= since) drop++;
    if (drop) state.events.splice(0, drop);
    let errors = 0;
    for (const [, e] of state.events) errors += e;
    return { errors, total: state.events.length };
  }

  check(state: ErrorRateState, now: number): Verdict[] {
    const config = this.config();
    if (!config.enabled) return [];
    const { errors, total } = this.window(state, now);
    if (total === 0 || total < config.minEvents) return [];
    const rate = errors / total;
    const pct = `${(rate * 100).toFixed(1)}%`;
    if (config.criticalRate > 0 && rate >= config.criticalRate) {
      return [
        tripped(
          'error_rate',
          'ERROR_RATE_CRITICAL',
          rate,
          config.criticalRate,
          `Error rate ${pct} (${errors} of ${total}) is above the critical level. Halting until the window clears.`,
        ),
      ];
    }
    if (config.warningRate > 0 && rate >= config.warningRate) {
      return [
        warning(
          'error_rate',
          'ERROR_RATE_WARNING',
          rate,
          config.warningRate,
          `Error rate ${pct} (${errors} of ${total}) is above the warning level.`,
        ),
      ];
    }
    return [];
  }
}
