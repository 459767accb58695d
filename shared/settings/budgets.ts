import { z } from 'zod';

const usd = z.number().nonnegative();

/** Optional caps for one agent; 0 or absent means "no separate cap" (the global ones apply). */
export const AgentCaps = z
  .object({
    perSessionUsd: usd.optional().meta({
      title: 'Per session',
      unit: 'usd',
      description: 'Absent (empty): the global budget applies.',
    }),
    perDayUsd: usd.optional().meta({
      title: 'Per day',
      unit: 'usd',
      description: 'Absent (empty): the global budget applies.',
    }),
    perOperationUsd: usd.optional().meta({
      title: 'Per operation',
      unit: 'usd',
      description: 'Absent (empty): the global budget applies.',
    }),
  })
  .meta({
    title: 'Caps for every agent',
    description:
      'Caps applied to every agent on top of the global budgets; absent means no separate cap.',
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
export const BudgetSettings = z
  .object({
    perDayUsd: usd.default(50).meta({
      title: 'Per day',
      unit: 'usd',
      description: 'All agents together, per local calendar day (resets at local midnight).',
    }),
    perSessionUsd: usd
      .default(10)
      .meta({ title: 'Per session', unit: 'usd', description: 'One agent session.' }),
    perOperationUsd: usd.default(2).meta({
      title: 'Per operation',
      unit: 'usd',
      description: 'One operation: one check estimate or one usage report.',
    }),
    maxCostPerCallUsd: z.number().positive().max(1_000_000).default(1000).meta({
      title: 'Largest believable cost of one call',
      unit: 'usd',
      description:
        'A larger cost in one usage report or check estimate is refused as invalid, not counted: one absurd report must not exhaust every budget.',
    }),
    warnAtPct: z.number().min(0).max(100).default(80).meta({
      title: 'Warn at',
      unit: 'pct',
      description: 'Share of a budget at which a warning is raised.',
    }),
    perPhaseUsd: z.record(z.string(), usd).default(DEFAULT_PHASE_BUDGETS).meta({
      title: 'Per phase of a session',
      unit: 'usd',
      description: 'A phase not listed has no phase budget.',
    }),
    perAgent: AgentCaps.prefault({}),
    agents: z.record(z.string(), AgentCaps).default({}).meta({
      title: 'Caps of named agents',
      description:
        'Per-agent overrides of the caps above, by agent name: a row per agent; an empty cell keeps the cap above.',
    }),
    reservationTtlMs: z
      .number()
      .int()
      .positive()
      .default(10 * 60_000)
      .meta({
        title: 'Reservation lifetime',
        unit: 'ms',
        description:
          'A check reservation that no usage report settles is released after this long.',
      }),
  })
  .meta({
    title: 'Budgets',
    description: 'Spend limits in US dollars; 0 means no limit.',
  });
export type BudgetSettings = z.infer<typeof BudgetSettings>;
