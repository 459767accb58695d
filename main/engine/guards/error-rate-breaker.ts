import type { Verdict } from '../../../shared/domain';
import type { BreakerRow } from '../../../shared/protocol/guard-methods';
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

  /**
   * The level of the rate inside the window: `critical`, `warning` or `ok`; undefined while
   * there are too few outcomes to judge. A level of 0 is off.
   */
  assess(
    state: ErrorRateState,
    now: number,
  ):
    | { errors: number; total: number; rate: number; level: 'critical' | 'warning' | 'ok' }
    | undefined {
    const config = this.config();
    const { errors, total } = this.window(state, now);
    if (total === 0 || total < config.minEvents) return undefined;
    const rate = errors / total;
    const level =
      config.criticalRate > 0 && rate >= config.criticalRate
        ? 'critical'
        : config.warningRate > 0 && rate >= config.warningRate
          ? 'warning'
          : 'ok';
    return { errors, total, rate, level };
  }

  check(state: ErrorRateState, now: number): Verdict[] {
    const config = this.config();
    if (!config.enabled) return [];
    const a = this.assess(state, now);
    if (!a || a.level === 'ok') return [];
    const pct = `${(a.rate * 100).toFixed(1)}%`;
    const counts = `(${a.errors} of ${a.total})`;
    return a.level === 'critical'
      ? [
          tripped(
            'error_rate',
            'ERROR_RATE_CRITICAL',
            a.rate,
            config.criticalRate,
            `Error rate ${pct} ${counts} is above the critical level. Halting until the window clears.`,
          ),
        ]
      : [
          warning(
            'error_rate',
            'ERROR_RATE_WARNING',
            a.rate,
            config.warningRate,
            `Error rate ${pct} ${counts} is above the warning level.`,
          ),
        ];
  }

  /**
   * The breakers-view row of a session with failures in its window: open while critical. A
   * disabled breaker never trips, so its row says so and stays closed.
   */
  row(state: ErrorRateState, now: number): Omit<BreakerRow, 'name' | 'kind'> | undefined {
    const config = this.config();
    const a = this.assess(state, now);
    if (!a || a.errors === 0) return undefined;
    const failed = `${a.errors} of ${a.total} outcomes failed`;
    if (!config.enabled) {
      return {
        state: 'closed',
        current: a.rate,
        threshold: config.criticalRate,
        detail: `disabled (guards.errorRate.enabled is off); ${failed}`,
      };
    }
    return {
      state: a.level === 'critical' ? 'open' : 'closed',
      ...(a.level === 'ok'
        ? {}
        : { reason: a.level === 'critical' ? 'ERROR_RATE_CRITICAL' : 'ERROR_RATE_WARNING' }),
      current: a.rate,
      threshold: config.criticalRate,
      detail: failed,
    };
  }
}
