import type { Verdict } from '../../../shared/domain';
import { atWarnLevel, minutes, tripped, warning } from './verdict';
import { own, ownOrSet } from '../../../shared/own';

export interface TimeConfig {
  enabled: boolean;
  warnAtPct: number;
  /** Per phase; `default` for phases not listed. 0 is no limit. */
  phaseTimeoutsMs: Record<string, number>;
  runTimeoutMs: number;
}

/** Per-session state: when the run and each phase started (epoch ms). */
export interface TimeState {
  runStartedAt: number;
  phaseStartedAt: Record<string, number>;
}

export const newTimeState = (now: number): TimeState => ({ runStartedAt: now, phaseStartedAt: {} });

/**
 * Time limits per phase and per run (seed 000). A phase's clock starts at the first check
 * that names it; the run's clock at the session's first guard call.
 */
export class TimeBreaker {
  constructor(private readonly config: () => TimeConfig) {}

  check(state: TimeState, now: number, phase?: string): Verdict[] {
    const config = this.config();
    if (!config.enabled) return [];
    const out: Verdict[] = [];
    if (phase !== undefined) {
      const started = ownOrSet(state.phaseStartedAt, phase, () => now);
      const limit = own(config.phaseTimeoutsMs, phase) ?? config.phaseTimeoutsMs.default ?? 0;
      this.judge(out, now - started, limit, config.warnAtPct, 'PHASE', `Phase ${phase}`);
    }
    this.judge(
      out,
      now - state.runStartedAt,
      config.runTimeoutMs,
      config.warnAtPct,
      'TOTAL',
      'The run',
    );
    return out;
  }

  private judge(
    out: Verdict[],
    elapsed: number,
    limit: number,
    warnAtPct: number,
    scope: 'PHASE' | 'TOTAL',
    what: string,
  ): void {
    if (limit <= 0) return;
    if (elapsed >= limit) {
      out.push(
        tripped(
          'time',
          `${scope}_TIMEOUT_EXCEEDED`,
          elapsed,
          limit,
          `${what} exceeded its ${minutes(limit)} time limit.`,
        ),
      );
    } else if (atWarnLevel(elapsed, limit, warnAtPct)) {
      out.push(
        warning(
          'time',
          `${scope}_TIMEOUT_WARNING`,
          elapsed,
          limit,
          `${what} has ${minutes(limit - elapsed)} left.`,
        ),
      );
    }
  }
}
