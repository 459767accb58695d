import type { z } from 'zod';
import type { GatehouseEvent } from '../../../shared/events';
import type { Mode, Risk, Verdict } from '../../../shared/domain';
import type {
  CheckParams,
  OutcomeParams,
  UsageParams,
} from '../../../shared/protocol/agent-methods';

/** Who a guard call is about. */
export interface GuardContext {
  sessionId: string;
  agent: string;
  project?: string | undefined;
  /**
   * Whether the project's policy forbids automatic automation-ladder changes. A question, not
   * a fact: it reads the project's policy file, which only a ladder change needs, so the calls
   * that build a context on every agent call (`hello`, `check`) never look at the file.
   */
  forbidsAutoLevel?: (() => boolean) | undefined;
}

/** What a guard call changed, for the engine to audit and publish. */
export interface GuardEffects {
  /** Audit entries to append in the same transaction: a type and its evidence. */
  audit: { type: string; data: Record<string, unknown> }[];
  /** Events to publish after commit (`guard.tripped`, `guard.warning`, `mode.changed`). */
  events: GatehouseEvent[];
}

export interface CheckOutcome extends GuardEffects {
  allowed: boolean;
  mode: Mode;
  verdicts: Verdict[];
  /** In conservative mode: what the agent should restrict (seed 004). */
  restrictions?: {
    model?: string | undefined;
    maxTokens: number;
    stream: false;
    blockedOperations: string[];
  };
}
export interface UsageOutcome extends GuardEffects {
  costUsd: number;
  spent: { session: number; day: number };
  verdicts: Verdict[];
}
export interface OutcomeOutcome extends GuardEffects {
  verdicts: Verdict[];
}

/**
 * The runtime guardrails (breakers, budgets, provider health, stuck detection, safety switch)
 * as the engine sees them. Calls are synchronous and run inside the engine's transaction, so
 * guard state and its audit entries commit together.
 */
export interface GuardPort {
  check(ctx: GuardContext, params: z.output<typeof CheckParams>): CheckOutcome;
  usage(ctx: GuardContext, params: z.output<typeof UsageParams>): UsageOutcome;
  outcome(ctx: GuardContext, params: z.output<typeof OutcomeParams>): OutcomeOutcome;
  /** The session's current mode (normal or conservative); pause is the engine's own. */
  mode(ctx: GuardContext): Mode;
  /** Spend so far, for session summaries. */
  spent(ctx: GuardContext): { session: number; day: number; budgetRemainingPct?: number };
  /** Conservative-mode restrictions for the agent, when the session is in that mode. */
  restrictions(ctx: GuardContext): CheckOutcome['restrictions'];
  /** An agent asked to widen its task (a `log` of type `scope_change`). */
  proposeScopeChange(ctx: GuardContext, description: string): OutcomeOutcome;
  /** A session ended: the automation ladder counts the run. */
  sessionEnded(ctx: GuardContext, status: 'completed' | 'failed' | 'aborted'): GuardEffects;
  /** A human decided one of the session's requests. */
  recordDecision(ctx: GuardContext, approved: boolean): GuardEffects;
  /** Whether the automation ladder lets this `ask` action through without a human. */
  mayAutoApprove(
    ctx: GuardContext,
    action: string,
    risk: Risk,
  ): { autoApprove: boolean; notify: boolean; level: number };
  /**
   * Forgets every in-memory copy of guard state and reads it again from the store: the
   * engine calls it after a rollback, so that a trip or a spend that was never committed
   * stops counting.
   */
  reload(): void;
  dispose(): void;
}
