import { z } from 'zod';
import { AgentCaps } from '../settings/budgets';
import { Restrictions } from './agent-methods';

/**
 * Admin methods of the runtime guardrails: budgets and spend, breakers, resets, manual
 * recovery from conservative mode, and the automation ladder. Amounts are US dollars.
 */

const SpendTotal = z.object({
  key: z.string(),
  costUsd: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  calls: z.number().int(),
});

export const GuardsBudgetsParams = z.object({
  /** How many local days of history to include, today included. */
  days: z.number().int().min(1).max(366).default(7),
});
export const GuardsBudgetsResult = z.object({
  day: z.string(),
  limits: z.object({
    perDayUsd: z.number(),
    perSessionUsd: z.number(),
    perOperationUsd: z.number(),
    warnAtPct: z.number(),
    perPhaseUsd: z.record(z.string(), z.number()),
    perAgent: AgentCaps,
    agents: z.record(z.string(), AgentCaps),
  }),
  spent: z.object({
    dayUsd: z.number(),
    reservedUsd: z.number(),
    /** Left of the daily budget; absent when there is none. */
    remainingDayUsd: z.number().optional(),
  }),
  byModel: z.array(SpendTotal),
  byAgent: z.array(SpendTotal),
  days: z.array(SpendTotal),
});

export const BreakerRow = z.object({
  /** The name `guards.reset` takes, e.g. `provider:openai`, `tool:agent-1:web_search`, `run:SESSION`. */
  name: z.string(),
  kind: z.enum(['provider', 'tool', 'run', 'stuck', 'safety_switch', 'error_rate']),
  state: z.enum(['closed', 'open', 'half_open']),
  reason: z.string().optional(),
  current: z.number(),
  threshold: z.number(),
  retryInMs: z.number().optional(),
  totalTrips: z.number().int().optional(),
  detail: z.string().optional(),
  /** For a session in conservative mode: what its agent is told to restrict. */
  restrictions: Restrictions.optional(),
});
export type BreakerRow = z.infer<typeof BreakerRow>;

/** One recent trip from the audit trail, shown even after its breaker closed again. */
export const BreakerTrip = z.object({
  at: z.string(),
  breaker: z.string(),
  reason: z.string().optional(),
  agent: z.string().optional(),
  sessionId: z.string().optional(),
  current: z.number().optional(),
  threshold: z.number().optional(),
  suggestion: z.string().optional(),
});
export type BreakerTrip = z.infer<typeof BreakerTrip>;

export const GuardsBreakersParams = z.object({}).default({});
export const GuardsBreakersResult = z.object({
  breakers: z.array(BreakerRow),
  /** The latest trips (newest first, the last 24 hours, at most 20), closed breakers included. */
  recentTrips: z.array(BreakerTrip).default([]),
});

export const GuardsResetParams = z.object({
  /**
   * A name from `guards.breakers`, or `iteration:SESSION`, `time:SESSION`, `budget:SESSION`
   * (releases reservations), `session:SESSION` (every guard of the session).
   */
  name: z.string().min(1).max(512),
  /** The trip was wrong: counts as a false positive on the automation ladder. */
  falsePositive: z.boolean().default(false),
  project: z.string().optional(),
});
export const GuardsResetResult = z.object({ reset: z.array(z.string()) });

export const GuardsRecoverParams = z.object({ sessionId: z.string().min(1) });
export const GuardsRecoverResult = z.object({
  recovered: z.boolean(),
  mode: z.enum(['normal', 'conservative']),
  reason: z.string().optional(),
});

export const LadderGetParams = z.object({ project: z.string().optional() });
export const LadderResult = z.object({
  project: z.string(),
  level: z.number().int(),
  name: z.string(),
  description: z.string(),
  autoChanges: z.boolean(),
  metrics: z.object({
    totalRuns: z.number().int(),
    successfulRuns: z.number().int(),
    falsePositives: z.number().int(),
    missedCriticalBugs: z.number().int(),
    decisions: z.number().int(),
    approvals: z.number().int(),
    falsePositiveRate: z.number(),
    approvalRate: z.number(),
  }),
  /** What the next level still needs; absent at the top. */
  next: z.object({ level: z.number().int(), unmet: z.array(z.string()) }).optional(),
  history: z.array(
    z.object({
      at: z.string(),
      from: z.number().int(),
      to: z.number().int(),
      by: z.enum(['auto', 'human']),
      reason: z.string(),
    }),
  ),
});
export const LadderSetParams = z.object({
  project: z.string().optional(),
  level: z.number().int().min(0).max(4),
  reason: z.string().max(1024).optional(),
});

/** Entries for `adminMethods` in method-map.ts. */
export const guardAdminMethods = {
  'guards.budgets': { params: GuardsBudgetsParams, result: GuardsBudgetsResult, mutates: false },
  'guards.breakers': { params: GuardsBreakersParams, result: GuardsBreakersResult, mutates: false },
  'guards.reset': { params: GuardsResetParams, result: GuardsResetResult, mutates: true },
  'guards.recover': { params: GuardsRecoverParams, result: GuardsRecoverResult, mutates: true },
  'ladder.get': { params: LadderGetParams, result: LadderResult, mutates: false },
  'ladder.set': { params: LadderSetParams, result: LadderResult, mutates: true },
} as const;
