import type { Verdict } from '../../../shared/domain';
import { tripped, warning } from './verdict';

export interface SafetySwitchConfig {
  enabled: boolean;
  conservativeModel: string;
  maxTokens: number;
  blockedOperations: string[];
  recentErrors: number;
  recentWindowMs: number;
  recoverMinBudgetPct: number;
  recoverQuietMs: number;
}

export type SwitchReason =
  'llm_error' | 'rate_limit' | 'timeout' | 'budget_exhausted' | 'repeated_errors';

/** What an agent in conservative mode should do (seed 004). */
export interface Restrictions {
  /** A cheaper model to use; undefined when the user named none ("any cheaper model"). */
  model?: string | undefined;
  maxTokens: number;
  stream: false;
  blockedOperations: string[];
}

/** Per-session state, plain JSON. */
export interface SwitchState {
  mode: 'normal' | 'conservative';
  reason?: SwitchReason;
  activatedAt?: number;
  /** Times of recent failed outcomes. */
  errors: number[];
  lastErrorAt?: number;
}

export const newSwitchState = (): SwitchState => ({ mode: 'normal', errors: [] });

/** A change of mode, for the `mode.changed` event and the audit. */
export interface ModeChange {
  mode: 'normal' | 'conservative';
  reason: string;
}

export interface SwitchOutcome {
  ok: boolean;
  status?: number | undefined;
  message?: string | undefined;
  provider?: string | undefined;
  source: string;
}

const LLM_SOURCE = /\b(llm|model|provider|completion|chat|inference)\b/i;
const TIMEOUT = /\btim(ed|e)[ -]?out\b|\betimedout\b/i;

/**
 * The safety switch of seed 004. LLM errors, rate limits, timeouts, an exhausted budget or a
 * burst of errors put a session into conservative mode: the agent is told to use a cheaper
 * model, fewer tokens and no streaming, and some operations are refused. It recovers by
 * itself after a success when budget is left and no error came for a while, or by a human.
 */
export class SafetySwitch {
  constructor(private readonly config: () => SafetySwitchConfig) {}

  /** Feeds one outcome; returns the mode change it caused, if any. */
  onOutcome(
    state: SwitchState,
    now: number,
    outcome: SwitchOutcome,
    budgetRemainingPct: number | undefined,
  ): ModeChange | undefined {
    const config = this.config();
    if (!config.enabled) return undefined;
    state.errors = state.errors.filter((t) => now - t < config.recentWindowMs);
    if (outcome.ok) {
      if (state.mode !== 'conservative') return undefined;
      const quiet =
        state.lastErrorAt === undefined || now - state.lastErrorAt >= config.recoverQuietMs;
      const budgetLeft =
        budgetRemainingPct === undefined || budgetRemainingPct > config.recoverMinBudgetPct;
      return quiet && budgetLeft ? this.deactivate(state, 'auto') : undefined;
    }
    state.errors.push(now);
    state.lastErrorAt = now;
    const reason = this.reasonFor(outcome, state.errors.length, config);
    return reason && state.mode === 'normal' ? this.activate(state, now, reason) : undefined;
  }

  onBudgetExhausted(state: SwitchState, now: number): ModeChange | undefined {
    if (!this.config().enabled || state.mode === 'conservative') return undefined;
    return this.activate(state, now, 'budget_exhausted');
  }

  /** Verdicts for a `check`: the restrictions while conservative, a refusal for blocked tools. */
  check(state: SwitchState, tool?: string): Verdict[] {
    if (state.mode !== 'conservative') return [];
    const r = this.restrictions();
    const recent = state.errors.length;
    const threshold = this.config().recentErrors;
    if (tool !== undefined && r.blockedOperations.includes(tool)) {
      return [
        tripped(
          'safety_switch',
          'OPERATION_BLOCKED_CONSERVATIVE',
          recent,
          threshold,
          `${tool} is not allowed in conservative mode (${state.reason ?? 'errors'}).`,
        ),
      ];
    }
    const model = r.model ? `use ${r.model}` : 'use a cheaper model';
    const blocked = r.blockedOperations.length
      ? `; blocked: ${r.blockedOperations.join(', ')}`
      : '';
    return [
      warning(
        'safety_switch',
        'CONSERVATIVE_MODE',
        recent,
        threshold,
        `Conservative mode (${state.reason ?? 'errors'}): ${model}, at most ${r.maxTokens} tokens, no streaming${blocked}.`,
        'open',
      ),
    ];
  }

  restrictions(): Restrictions {
    const config = this.config();
    return {
      model: config.conservativeModel || undefined,
      maxTokens: config.maxTokens,
      stream: false,
      blockedOperations: [...config.blockedOperations],
    };
  }

  /**
   * A human's "try again": skips the wait for a success, but not an exhausted budget, which
   * would only switch the session straight back.
   */
  recoverManually(
    state: SwitchState,
    budgetRemainingPct: number | undefined,
  ): { recovered: boolean; change?: ModeChange; reason?: string } {
    if (state.mode !== 'conservative')
      return { recovered: false, reason: 'the session is not in conservative mode' };
    if (budgetRemainingPct !== undefined && budgetRemainingPct <= 0) {
      return {
        recovered: false,
        reason: 'a budget is used up; raise it or wait for the daily reset first',
      };
    }
    state.errors = [];
    return { recovered: true, change: this.deactivate(state, 'manual') };
  }

  private reasonFor(
    outcome: SwitchOutcome,
    recentErrors: number,
    config: SafetySwitchConfig,
  ): SwitchReason | undefined {
    if (outcome.status === 429) return 'rate_limit';
    if (outcome.status === 408 || outcome.status === 504 || TIMEOUT.test(outcome.message ?? ''))
      return 'timeout';
    if (outcome.provider !== undefined || LLM_SOURCE.test(outcome.source)) return 'llm_error';
    if (recentErrors >= config.recentErrors) return 'repeated_errors';
    return undefined;
  }

  private activate(state: SwitchState, now: number, reason: SwitchReason): ModeChange {
    state.mode = 'conservative';
    state.reason = reason;
    state.activatedAt = now;
    return { mode: 'conservative', reason };
  }

  private deactivate(state: SwitchState, how: 'auto' | 'manual'): ModeChange {
    state.mode = 'normal';
    delete state.reason;
    delete state.activatedAt;
    return { mode: 'normal', reason: how === 'auto' ? 'auto_recovery' : 'manual_recovery' };
  }
}
