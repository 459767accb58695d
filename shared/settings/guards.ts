import { z } from 'zod';

/**
 * Settings of the runtime guardrails (breakers, provider health, stuck detection, the safety
 * switch, the automation ladder, price overrides). Defaults come from the seeds; budgets live
 * in `budgets.*` (./budgets.ts). Every limit of 0 means "off".
 */

const ms = z.number().int().nonnegative();
const pct = z.number().min(0).max(100);

/** The three-state breaker of seed 002, used per tool (and by the SDK's tool guard). */
export const CircuitSettings = z.object({
  failureThreshold: z.number().int().positive().default(5),
  failureWindowMs: ms.default(60_000),
  cooldownMs: ms.default(30_000),
  /** Probe calls admitted in half-open; all of them must succeed to close again. */
  halfOpenProbes: z.number().int().positive().default(2),
});
export type CircuitSettings = z.infer<typeof CircuitSettings>;

/** Iteration limits per phase and stagnation, from seed 000. */
export const IterationSettings = z.object({
  enabled: z.boolean().default(true),
  warnAtPct: pct.default(80),
  limits: z.record(z.string(), z.number().int().nonnegative()).default({
    default: 10,
    planning: 20,
    implementation: 50,
    review: 10,
    testing: 5,
    deployment: 3,
  }),
  /** Consecutive checks with `progress: false` that count as stagnation. */
  stagnationThreshold: z.number().int().nonnegative().default(3),
});

/** Time limits per phase and per run (session), from seed 000. */
export const TimeSettings = z.object({
  enabled: z.boolean().default(true),
  warnAtPct: pct.default(90),
  phaseTimeoutsMs: z.record(z.string(), ms).default({
    default: 30 * 60_000,
    planning: 30 * 60_000,
    implementation: 60 * 60_000,
    review: 30 * 60_000,
    testing: 20 * 60_000,
    deployment: 15 * 60_000,
  }),
  runTimeoutMs: ms.default(120 * 60_000),
});

/** Sliding-window error rate, from seed 000. */
export const ErrorRateSettings = z.object({
  enabled: z.boolean().default(true),
  windowMs: ms.default(5 * 60_000),
  warningRate: z.number().min(0).max(1).default(0.1),
  criticalRate: z.number().min(0).max(1).default(0.25),
  /** Fewer outcomes than this in the window are too few to judge a rate by. */
  minEvents: z.number().int().nonnegative().default(10),
});

const ProviderClass = z.object({
  threshold: z.number().int().positive(),
  cooldownMs: ms,
});
/** Provider health by error class, from seed 002. */
export const ProviderSettings = z.object({
  payment: ProviderClass.default({ threshold: 1, cooldownMs: 5 * 60_000 }),
  auth: ProviderClass.default({ threshold: 1, cooldownMs: 30 * 60_000 }),
  rateLimit: ProviderClass.default({ threshold: 3, cooldownMs: 30_000 }),
  transient: ProviderClass.default({ threshold: 5, cooldownMs: 60_000 }),
});
export type ProviderSettings = z.infer<typeof ProviderSettings>;

/** Stuck detection per session, from seed 002. */
export const StuckSettings = z.object({
  enabled: z.boolean().default(true),
  repetitionThreshold: z.number().int().positive().default(3),
  errorRepetitionThreshold: z.number().int().positive().default(3),
  windowMs: ms.default(5 * 60_000),
  maxHistory: z.number().int().positive().default(50),
  /** Longest cycle looked for (2 finds A-B-A-B, 3 also A-B-C-A-B-C). */
  maxCyclePeriod: z.number().int().min(2).default(3),
  /** How many full turns of a cycle count as stuck. */
  cycleRepeats: z.number().int().min(2).default(2),
  /** Tools that legitimately repeat (status polls): exempt, they get a back-off suggestion. */
  pollingTools: z.array(z.string()).default([]),
  backoffBaseMs: ms.default(1_000),
  backoffMaxMs: ms.default(60_000),
});

/** Run breaker of seed 003. Token limits of 0 are off (the seed's Infinity). */
export const RunSettings = z.object({
  enabled: z.boolean().default(true),
  maxRetries: z.number().int().nonnegative().default(3),
  maxRepeatedErrors: z.number().int().nonnegative().default(2),
  tokensPerStep: z.number().int().nonnegative().default(0),
  tokensPerTask: z.number().int().nonnegative().default(0),
  scopeFreeze: z.boolean().default(true),
});

/** The safety switch of seed 004: conservative mode and its recovery. */
export const SafetySwitchSettings = z.object({
  enabled: z.boolean().default(true),
  /** Model an agent should switch to in conservative mode; empty: "a cheaper model". */
  conservativeModel: z.string().default(''),
  maxTokens: z.number().int().positive().default(4000),
  /** Operations (the `tool` of `check`) refused in conservative mode. */
  blockedOperations: z.array(z.string()).default([]),
  /** Errors within `recentWindowMs` that switch a session to conservative mode. */
  recentErrors: z.number().int().positive().default(3),
  recentWindowMs: ms.default(5 * 60_000),
  /** Automatic recovery needs at least this much budget left... */
  recoverMinBudgetPct: pct.default(20),
  /** ...and no error for this long. */
  recoverQuietMs: ms.default(5 * 60_000),
});

/** The automation ladder of seed 000. */
export const LadderSettings = z.object({
  initialLevel: z.number().int().min(0).max(4).default(1),
  allowLevelUp: z.boolean().default(true),
  /** Projects (absolute paths) whose level never changes automatically. */
  noAutoLevelProjects: z.array(z.string()).default([]),
  /** Actions never auto-approved at any level. */
  neverAutoActions: z
    .array(z.string())
    .default(['deploy', 'purchase', 'delete_files', 'git_push', 'send_email']),
});

/** A user price for a model, in US dollars per million tokens. */
export const PriceOverride = z.object({
  inputPerMTokUsd: z.number().nonnegative(),
  outputPerMTokUsd: z.number().nonnegative(),
});
export type PriceOverride = z.infer<typeof PriceOverride>;

export const PriceSettings = z.object({
  /** Model id → price; wins over the bundled price table. */
  overrides: z.record(z.string(), PriceOverride).default({}),
});

export const GuardSettings = z.object({
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
  /** Identical warnings (same session, breaker and reason) are published once per window. */
  eventDedupWindowMs: ms.default(60_000),
});
export type GuardSettings = z.infer<typeof GuardSettings>;
