import type { Verdict } from '../../../shared/domain';
import { atWarnLevel, tripped, warning } from './verdict';
import { own, ownOrSet } from '../../../shared/own';

export interface IterationConfig {
  enabled: boolean;
  warnAtPct: number;
  /** Limit per phase; `default` for phases not listed. 0 is no limit. */
  limits: Record<string, number>;
  stagnationThreshold: number;
}

/** Per-session state: counts per phase. Plain JSON so that it persists as is. */
export interface IterationState {
  phases: Record<string, { count: number; stagnant: number }>;
}

export const newIterationState = (): IterationState => ({ phases: {} });

export interface IterationInput {
  phase: string;
  /** The agent's own iteration number; when absent each call counts one more. */
  iteration?: number | undefined;
  /** `false` counts towards stagnation, `true` resets it. */
  progress?: boolean | undefined;
}

/**
 * Iteration limits per phase and stagnation (seed 000). Only checks that declare a loop turn
 * (with `iteration` or `progress`) count: a `check` before a costly call is not an iteration.
 */
export class IterationBreaker {
  constructor(private readonly config: () => IterationConfig) {}

  limitFor(phase: string): number {
    const limits = this.config().limits;
    return own(limits, phase) ?? limits.default ?? 0;
  }

  check(state: IterationState, input: IterationInput): Verdict[] {
    const config = this.config();
    if (!config.enabled || (input.iteration === undefined && input.progress === undefined)) {
      return [];
    }
    const entry = ownOrSet(state.phases, input.phase, () => ({ count: 0, stagnant: 0 }));
    entry.count = input.iteration ?? entry.count + 1;
    if (input.progress === false) entry.stagnant++;
    else if (input.progress === true) entry.stagnant = 0;

    const out: Verdict[] = [];
    const stagnation = config.stagnationThreshold;
    if (stagnation > 0 && entry.stagnant >= stagnation) {
      out.push(
        tripped(
          'stagnation',
          'STAGNATION_DETECTED',
          entry.stagnant,
          stagnation,
          `No progress in ${entry.stagnant} iterations of phase ${input.phase}. Simplify the approach or ask a human.`,
        ),
      );
    }
    const limit = this.limitFor(input.phase);
    if (limit > 0 && entry.count > limit) {
      out.push(
        tripped(
          'iteration',
          'MAX_ITERATIONS_EXCEEDED',
          entry.count,
          limit,
          `Phase ${input.phase} exceeded ${limit} iterations. The task may be too complex or the approach wrong.`,
        ),
      );
    } else if (atWarnLevel(entry.count, limit, config.warnAtPct)) {
      out.push(
        warning(
          'iteration',
          'APPROACHING_ITERATION_LIMIT',
          entry.count,
          limit,
          `${limit - entry.count} iterations left in phase ${input.phase}.`,
        ),
      );
    }
    return out;
  }

  /** Forgets a phase's counts (a human reset, or the agent starting the phase over). */
  resetPhase(state: IterationState, phase?: string): void {
    if (phase === undefined) state.phases = {};
    else delete state.phases[phase];
  }
}
