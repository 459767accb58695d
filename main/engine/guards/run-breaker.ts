import type { Verdict } from '../../../shared/domain';
import type { Clock } from '../../../shared/clock';
import { escalationMessage } from './escalation';
import { firstLine, normalise } from './output-fingerprint';
import { tripped } from './verdict';

export interface RunConfig {
  enabled: boolean;
  maxRetries: number;
  maxRepeatedErrors: number;
  tokensPerStep: number;
  tokensPerTask: number;
  scopeFreeze: boolean;
}

export type StoppedBy =
  | 'max_retries'
  | 'repeated_error'
  | 'token_budget_step'
  | 'token_budget_task'
  | 'scope_freeze'
  | 'kill_switch';

const REASONS: Record<StoppedBy, string> = {
  max_retries: 'MAX_RETRIES_EXCEEDED',
  repeated_error: 'REPEATED_ERROR_ESCALATED',
  token_budget_step: 'TOKEN_BUDGET_STEP_EXCEEDED',
  token_budget_task: 'TOKEN_BUDGET_TASK_EXCEEDED',
  scope_freeze: 'SCOPE_FROZEN',
  kill_switch: 'KILL_SWITCH',
};

const NEXT_STEPS: Record<StoppedBy, string> = {
  max_retries:
    'fix the cause by hand, give the agent a different approach, or abandon the task; reset the run breaker to let it try again.',
  repeated_error:
    'the same error keeps coming back, so retrying will not help: fix the cause or change the instructions, then reset the run breaker.',
  token_budget_step:
    'allow a bigger step (guards.run.tokensPerStep) or ask the agent to split the work.',
  token_budget_task:
    'raise the task token budget (guards.run.tokensPerTask), or accept what was done and stop.',
  scope_freeze:
    'approve the wider scope (reset the run breaker, or turn guards.run.scopeFreeze off) or keep the agent to its task.',
  kill_switch: 'decide whether the agent may resume; reset the run breaker to let it continue.',
};

/** Per-session state, plain JSON. */
export interface RunState {
  /** Failed attempts since the last success. */
  attempts: number;
  lastError?: string;
  repeatedErrors: number;
  tokensTask: number;
  /** The last few failures, for "what was tried". */
  tried: string[];
  stopped?: {
    stoppedBy: StoppedBy;
    reason: string;
    current: number;
    threshold: number;
    message: string;
    at: number;
  };
}

export const newRunState = (): RunState => ({
  attempts: 0,
  repeatedErrors: 0,
  tokensTask: 0,
  tried: [],
});

const TRIED_KEPT = 5;

/**
 * The run breaker of seed 003: a hard retry limit, repeated identical errors, token budgets
 * per step and per task, a scope freeze and a kill switch. Once it stops a run it stays
 * stopped until a human resets it, and the stop carries the four-part escalation message.
 */
export class RunBreaker {
  constructor(
    private readonly config: () => RunConfig,
    private readonly clock: Clock,
  ) {}

  check(state: RunState): Verdict[] {
    return state.stopped ? [this.verdictOf(state.stopped)] : [];
  }

  recordOutcome(state: RunState, ok: boolean, source: string, message?: string): Verdict[] {
    const config = this.config();
    if (!config.enabled || state.stopped) return [];
    if (ok) {
      state.attempts = 0;
      state.repeatedErrors = 0;
      delete state.lastError;
      return [];
    }
    const line = firstLine(message ?? '') || `${source} failed`;
    const key = normalise(line);
    state.attempts++;
    state.repeatedErrors = state.lastError === key ? state.repeatedErrors + 1 : 1;
    state.lastError = key;
    state.tried.push(`${source}: ${line}`);
    if (state.tried.length > TRIED_KEPT) state.tried.shift();

    if (config.maxRepeatedErrors > 0 && state.repeatedErrors >= config.maxRepeatedErrors) {
      return this.stop(
        state,
        'repeated_error',
        state.repeatedErrors,
        config.maxRepeatedErrors,
        line,
        `the same error came back ${state.repeatedErrors} times in a row (limit ${config.maxRepeatedErrors})`,
      );
    }
    if (state.attempts > config.maxRetries) {
      return this.stop(
        state,
        'max_retries',
        state.attempts,
        config.maxRetries,
        line,
        `${state.attempts} failed attempts, more than the ${config.maxRetries} retries allowed`,
      );
    }
    return [];
  }

  recordTokens(state: RunState, tokens: number): Verdict[] {
    const config = this.config();
    if (!config.enabled || state.stopped) return [];
    state.tokensTask += tokens;
    if (config.tokensPerStep > 0 && tokens > config.tokensPerStep) {
      return this.stop(
        state,
        'token_budget_step',
        tokens,
        config.tokensPerStep,
        `one step used ${tokens} tokens`,
        `a step may use at most ${config.tokensPerStep} tokens`,
      );
    }
    if (config.tokensPerTask > 0 && state.tokensTask > config.tokensPerTask) {
      return this.stop(
        state,
        'token_budget_task',
        state.tokensTask,
        config.tokensPerTask,
        `the task used ${state.tokensTask} tokens`,
        `the task may use at most ${config.tokensPerTask} tokens`,
      );
    }
    return [];
  }

  /** An agent asks to widen its task; refused (and the run stopped) while scope is frozen. */
  proposeScopeChange(state: RunState, description: string): Verdict[] {
    const config = this.config();
    if (!config.enabled || !config.scopeFreeze) return [];
    return this.stop(
      state,
      'scope_freeze',
      1,
      0,
      `the agent wanted to widen its task: ${description}`,
      'the scope of this run is frozen',
    );
  }

  /** The kill switch: stops the run at once. */
  kill(state: RunState, reason: string): Verdict[] {
    return this.stop(
      state,
      'kill_switch',
      1,
      0,
      reason,
      `a human or policy pulled the kill switch: ${reason}`,
    );
  }

  reset(state: RunState): void {
    Object.assign(state, newRunState());
    delete state.stopped;
    delete state.lastError;
  }

  private stop(
    state: RunState,
    stoppedBy: StoppedBy,
    current: number,
    threshold: number,
    whatFailed: string,
    why: string,
  ): Verdict[] {
    const tried = state.tried.length
      ? `${state.attempts} failed attempt(s) since the last success; last: ${state.tried.join(' | ')}`
      : `${state.tokensTask} tokens used so far; no failed attempts recorded`;
    state.stopped = {
      stoppedBy,
      reason: REASONS[stoppedBy],
      current,
      threshold,
      at: this.clock.now(),
      message: escalationMessage({
        whatFailed,
        whatWasTried: tried,
        whyItStopped: why,
        whatToDecide: NEXT_STEPS[stoppedBy],
      }),
    };
    return [this.verdictOf(state.stopped)];
  }

  private verdictOf(stopped: NonNullable<RunState['stopped']>): Verdict {
    return tripped('run', stopped.reason, stopped.current, stopped.threshold, stopped.message);
  }
}
