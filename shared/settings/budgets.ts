import { z } from 'zod';

/** Spend limits in US dollars. 0 means no limit. */
export const BudgetSettings = z.object({
  perDayUsd: z.number().nonnegative().default(50),
  perSessionUsd: z.number().nonnegative().default(10),
  perOperationUsd: z.number().nonnegative().default(2),
  /** Fraction of a budget at which a warning is raised. */
  warnAtPct: z.number().min(0).max(100).default(80),
});
