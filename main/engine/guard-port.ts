import type { z } from 'zod';
import type { GatehouseEvent } from '../../shared/events';
import type { Mode, Verdict } from '../../shared/domain';
import type { CheckParams, OutcomeParams, UsageParams } from '../../shared/protocol/agent-methods';

/** Who a guard call is about. */
export interface GuardContext {
  sessionId: string;
  agent: string;
  project?: string;
  /** The project's policy forbids automatic automation-ladder changes. */
  noAutoLevel?: boolean;
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
    model?: string;
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
}
