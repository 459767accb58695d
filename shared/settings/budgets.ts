import { z } from 'zod';

/** Optional caps for one agent; 0 or absent means "no separate cap" (the global ones apply). */
export const AgentCaps = z.object({
  perSessionUsd: z.number().nonnegative().optional(),
  perDayUsd: z.number().nonnegative().optional(),
  perOperationUsd: z.number().nonnegative().optional(),
});
export type AgentCaps = z.infer<typeof AgentCaps>;

/** Per-phase budgets of one session, from seed 000 (CostBreaker). */
const DEFAULT_PHASE_BUDGETS = {
  planning: 5,
  implementation: 10,
  review: 2,
  testing: 3,
  deployment: 2,
};

/** Spend limits in US dollars. 0 means no limit. */
export const BudgetSettings = z.object({
  /** All agents together, per local calendar day (resets at local midnight). */
  perDayUsd: z.number().nonnegative().default(50),
  /** One session. */
  perSessionUsd: z.number().nonnegative().default(10),
  /** One operation (one `check` estimate, one `usage` report). */
  perOperationUsd: z.number().nonnegative().default(2),
  /**
   * The most one `usage` report or `check` estimate may claim: a larger `costUsd` is an
   * invalid-params error, not spend (one absurd report must not exhaust every budget).
   */
  maxCostPerCallUsd: z.number().positive().max(1_000_000).default(1000),
  /** Fraction of a budget at which a warning is raised. */
  warnAtPct: z.number().min(0).max(100).default(80),
  /** Per phase of a session; a phase not listed has no phase budget. */
  perPhaseUsd: z.record(z.string(), z.number().nonnegative()).default(DEFAULT_PHASE_BUDGETS),
  /** Caps applied to every agent on top of the global budgets (CostGuard of seed 002). */
  perAgent: AgentCaps.prefault({}),
  /** Per-agent overrides of `perAgent`, by agent name. */
  agents: z.record(z.string(), AgentCaps).default({}),
  /** A `check` reservation that no `usage` settles is released after this long. */
  reservationTtlMs: z
    .number()
    .int()
    .positive()
    .default(10 * 60_000),
});
export type BudgetSettings = z.infer<typeof BudgetSettings>;
