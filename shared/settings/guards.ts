import { z } from 'zod';

/**
 * Settings of the runtime guardrails (breakers, provider health, stuck detection, the safety
 * switch, the automation ladder, price overrides). Defaults come from the seeds; budgets live
 * in `budgets.*` (./budgets.ts). Every limit of 0 means "off".
 */

const ms = z.number().int().nonnegative();
const pct = z.number().min(0).max(100);
const enabledFlag = z.boolean().default(true).meta({ title: 'On' });
const warnAt = (value: number) =>
  pct.default(value).meta({
    title: 'Warn at',
    unit: 'pct',
    description: 'Share of a limit at which a warning is raised.',
  });

/** The three-state breaker of seed 002, used per tool (and by the SDK's tool guard). */
export const CircuitSettings = z
  .object({
    failureThreshold: z.number().int().positive().default(5).meta({
      title: 'Failures that open it',
      description: 'Failures of one tool within the window that open its breaker.',
    }),
    failureWindowMs: ms.default(60_000).meta({ title: 'Failure window', unit: 'ms' }),
    cooldownMs: ms
      .default(30_000)
      .meta({ title: 'Open for', unit: 'ms', description: 'Time open before probing again.' }),
    halfOpenProbes: z.number().int().positive().default(2).meta({
      title: 'Probe calls',
      description: 'Calls let through half-open; all of them must succeed to close again.',
    }),
  })
  .meta({ title: 'Tool breakers', description: 'A breaker per tool that keeps failing.' });
export type CircuitSettings = z.infer<typeof CircuitSettings>;

/** Iteration limits per phase and stagnation, from seed 000. */
export const IterationSettings = z
  .object({
    enabled: enabledFlag,
    warnAtPct: warnAt(80),
    limits: z
      .record(z.string(), z.number().int().nonnegative())
      .default({
        default: 10,
        planning: 20,
        implementation: 50,
        review: 10,
        testing: 5,
        deployment: 3,
      })
      .meta({
        title: 'Iterations per phase',
        description: 'The most iterations of one phase; 0 is no limit.',
      }),
    stagnationThreshold: z.number().int().nonnegative().default(3).meta({
      title: 'Stagnation after',
      description: 'Consecutive checks without progress that count as stagnation.',
    }),
  })
  .meta({ title: 'Iterations', description: 'Stops an agent that loops without progress.' });

/** Time limits per phase and per run (session), from seed 000. */
export const TimeSettings = z
  .object({
    enabled: enabledFlag,
    warnAtPct: warnAt(90),
    phaseTimeoutsMs: z
      .record(z.string(), ms)
      .default({
        default: 30 * 60_000,
        planning: 30 * 60_000,
        implementation: 60 * 60_000,
        review: 30 * 60_000,
        testing: 20 * 60_000,
        deployment: 15 * 60_000,
      })
      .meta({
        title: 'Time per phase',
        unit: 'ms',
        description: 'The longest one phase may take; 0 is no limit.',
      }),
    runTimeoutMs: ms
      .default(120 * 60_000)
      .meta({ title: 'Time per run', unit: 'ms', description: 'The longest one session may run.' }),
  })
  .meta({ title: 'Time limits', description: 'Stops a phase or a run that takes too long.' });

/** Sliding-window error rate, from seed 000. */
export const ErrorRateSettings = z
  .object({
    enabled: enabledFlag,
    windowMs: ms.default(5 * 60_000).meta({ title: 'Window', unit: 'ms' }),
    warningRate: z.number().min(0).max(1).default(0.1).meta({
      title: 'Warn at error rate',
      unit: 'fraction',
      description: 'Share of failed outcomes in the window (0 to 1) that raises a warning.',
    }),
    criticalRate: z.number().min(0).max(1).default(0.25).meta({
      title: 'Stop at error rate',
      unit: 'fraction',
      description: 'Share of failed outcomes in the window (0 to 1) that stops the agent.',
    }),
    minEvents: z.number().int().nonnegative().default(10).meta({
      title: 'Fewest outcomes to judge',
      description: 'Fewer outcomes than this in the window are too few to judge a rate by.',
    }),
  })
  .meta({ title: 'Error rate', description: 'Stops an agent whose calls keep failing.' });

const ProviderClass = z.object({
  threshold: z
    .number()
    .int()
    .positive()
    .meta({ title: 'Errors that open it', description: 'Errors of this class in a row.' }),
  cooldownMs: ms.meta({ title: 'Open for', unit: 'ms' }),
});
const providerClass = (title: string, threshold: number, cooldownMs: number) =>
  ProviderClass.meta({ title }).default({ threshold, cooldownMs });
/** Provider health by error class, from seed 002. */
export const ProviderSettings = z
  .object({
    payment: providerClass('Payment errors', 1, 5 * 60_000),
    auth: providerClass('Authentication errors', 1, 30 * 60_000),
    rateLimit: providerClass('Rate limits', 3, 30_000),
    transient: providerClass('Transient errors', 5, 60_000),
  })
  .meta({
    title: 'Provider health',
    description: 'A breaker per model provider, by the class of error it answers with.',
  });
export type ProviderSettings = z.infer<typeof ProviderSettings>;

/** Stuck detection per session, from seed 002. */
export const StuckSettings = z
  .object({
    enabled: enabledFlag,
    repetitionThreshold: z.number().int().positive().default(3).meta({
      title: 'Same action repeated',
      description: 'The same action this many times in the window counts as stuck.',
    }),
    errorRepetitionThreshold: z.number().int().positive().default(3).meta({
      title: 'Same error repeated',
      description: 'The same error this many times in the window counts as stuck.',
    }),
    windowMs: ms.default(5 * 60_000).meta({ title: 'Window', unit: 'ms' }),
    maxHistory: z
      .number()
      .int()
      .positive()
      .default(50)
      .meta({ title: 'Actions remembered', description: 'Per session.' }),
    maxCyclePeriod: z.number().int().min(2).default(3).meta({
      title: 'Longest cycle',
      description: 'Longest cycle looked for: 2 finds A-B-A-B, 3 also A-B-C-A-B-C.',
    }),
    cycleRepeats: z.number().int().min(2).default(2).meta({
      title: 'Turns of a cycle',
      description: 'How many full turns of a cycle count as stuck.',
    }),
    pollingTools: z.array(z.string()).default([]).meta({
      title: 'Polling tools',
      description:
        'Tools that legitimately repeat (status polls): exempt, they get a back-off suggestion.',
    }),
    backoffBaseMs: ms.default(1_000).meta({ title: 'First back-off', unit: 'ms' }),
    backoffMaxMs: ms.default(60_000).meta({ title: 'Longest back-off', unit: 'ms' }),
  })
  .meta({ title: 'Stuck detection', description: 'Notices an agent that repeats itself.' });

/** Run breaker of seed 003. Token limits of 0 are off (the seed's Infinity). */
export const RunSettings = z
  .object({
    enabled: enabledFlag,
    maxRetries: z.number().int().nonnegative().default(3).meta({
      title: 'Retries',
      description: 'Retries of one step before the run stops.',
    }),
    maxRepeatedErrors: z.number().int().nonnegative().default(2).meta({
      title: 'Repeated errors',
      description: 'The same error this many times stops the run.',
    }),
    tokensPerStep: z.number().int().nonnegative().default(0).meta({
      title: 'Tokens per step',
      unit: 'tokens',
      description: '0 is no limit.',
    }),
    tokensPerTask: z.number().int().nonnegative().default(0).meta({
      title: 'Tokens per task',
      unit: 'tokens',
      description: '0 is no limit.',
    }),
    scopeFreeze: z.boolean().default(true).meta({
      title: 'Freeze the scope',
      description: 'Stop a run that reaches for files or tools outside the scope it started with.',
    }),
  })
  .meta({
    title: 'Run breaker',
    description: 'Stops a run that retries, repeats or overspends tokens.',
  });

/** The safety switch of seed 004: conservative mode and its recovery. */
export const SafetySwitchSettings = z
  .object({
    enabled: enabledFlag,
    conservativeModel: z.string().default('').meta({
      title: 'Conservative model',
      description: 'The model an agent should switch to; empty: "a cheaper model".',
    }),
    maxTokens: z.number().int().positive().default(4000).meta({
      title: 'Most tokens per call',
      unit: 'tokens',
    }),
    blockedOperations: z.array(z.string()).default([]).meta({
      title: 'Blocked operations',
      description: 'Operations (the tool of a check) refused in conservative mode.',
    }),
    recentErrors: z.number().int().positive().default(3).meta({
      title: 'Errors that switch it on',
      description: 'Errors within the window that switch a session to conservative mode.',
    }),
    recentWindowMs: ms.default(5 * 60_000).meta({ title: 'Error window', unit: 'ms' }),
    recoverMinBudgetPct: pct.default(20).meta({
      title: 'Recover with budget left',
      unit: 'pct',
      description: 'Automatic recovery needs at least this much of the budget left…',
    }),
    recoverQuietMs: ms.default(5 * 60_000).meta({
      title: 'Recover after quiet',
      unit: 'ms',
      description: '…and no error for this long.',
    }),
  })
  .meta({
    title: 'Safety switch',
    description: 'Conservative mode: a session that keeps failing is restricted until it recovers.',
  });

/** The automation ladder of seed 000. */
export const LadderSettings = z
  .object({
    initialLevel: z.number().int().min(0).max(4).default(1).meta({
      title: 'Starting level',
      description: 'Level of a new project, from 0 (ask for everything) to 4.',
    }),
    allowLevelUp: z.boolean().default(true).meta({
      title: 'Level up automatically',
      description: 'A project that behaves well climbs a level on its own.',
    }),
    noAutoLevelProjects: z.array(z.string()).default([]).meta({
      title: 'Projects with a fixed level',
      description: 'Projects (absolute paths) whose level never changes automatically.',
    }),
    neverAutoActions: z
      .array(z.string())
      .default(['deploy', 'purchase', 'delete_files', 'git_push', 'send_email'])
      .meta({ title: 'Never automatic', description: 'Actions never auto-approved at any level.' }),
  })
  .meta({
    title: 'Automation ladder',
    description: 'How much each project may do without asking.',
  });

/** A user price for a model, in US dollars per million tokens. */
export const PriceOverride = z.object({
  inputPerMTokUsd: z.number().nonnegative(),
  outputPerMTokUsd: z.number().nonnegative(),
});
export type PriceOverride = z.infer<typeof PriceOverride>;

export const PriceSettings = z
  .object({
    overrides: z.record(z.string(), PriceOverride).default({}).meta({
      title: 'Price overrides',
      description:
        'Model id → price per million tokens, input and output; wins over the bundled price table.',
    }),
  })
  .meta({ title: 'Prices' });

export const GuardSettings = z
  .object({
    circuit: CircuitSettings.prefault({}),
    iteration: IterationSettings.prefault({}),
    time: TimeSettings.prefault({}),
    errorRate: ErrorRateSettings.prefault({}),
    providers: ProviderSettings.prefault({}),
    stuck: StuckSettings.prefault({}),
    run: RunSettings.prefault({}),
    safety: SafetySwitchSettings.prefault({}),
    ladder: LadderSettings.prefault({}),
    prices: PriceSettings.prefault({}),
    eventDedupWindowMs: ms.default(60_000).meta({
      title: 'Repeat a warning after',
      unit: 'ms',
      description:
        'Identical warnings (same session, breaker and reason) are published once per window.',
    }),
  })
  .meta({
    title: 'Breakers and guards',
    description: 'The guardrails that stop a runaway agent. Every limit of 0 is off.',
  });
export type GuardSettings = z.infer<typeof GuardSettings>;
