import type { z } from 'zod';
import type { Mode, Risk, Verdict } from '../../../shared/domain';
import type { GatehouseEvent } from '../../../shared/events';
import type {
  CheckParams,
  OutcomeParams,
  UsageParams,
} from '../../../shared/protocol/agent-methods';
import type { BudgetSettings } from '../../../shared/settings/budgets';
import type { GuardSettings } from '../../../shared/settings/guards';
import type { Clock } from '../../../shared/clock';
import type {
  CheckOutcome,
  GuardContext,
  GuardEffects,
  GuardPort,
  OutcomeOutcome,
  UsageOutcome,
} from '../guard-port';
import { ActionDeduplicator } from './action-dedup';
import { AutomationLadder, type LadderState, type LevelChange } from './automation-ladder';
import { BudgetGuard } from './budget-guard';
import type { CircuitBreaker } from '../../../shared/circuit-breaker';
import { ErrorRateBreaker } from './error-rate-breaker';
import type { GuardStateStore } from './guard-state-store';
import { IterationBreaker } from './iteration-breaker';
import { PriceTable, type PriceLookup } from './price-table';
import { ProviderHealth, statusOf, type ProviderSnapshot } from './provider-health';
import { RunBreaker } from './run-breaker';
import { SafetySwitch, type ModeChange, type Restrictions } from './safety-switch';
import { SessionGuards } from './session-guards';
import { StuckDetector } from './stuck-detector';
import { TimeBreaker } from './time-breaker';
import { ToolBreakers } from './tool-breakers';
import { tripped } from './verdict';

/** The settings the guards read; a slice of the app's `Settings`. */
export interface GuardSettingsView {
  budgets: BudgetSettings;
  guards: GuardSettings;
}

export interface GuardChainOptions {
  clock: Clock;
  store: GuardStateStore;
  /** Read on every call, so a `settings.set` takes effect at once. */
  settings: () => GuardSettingsView;
  /** The price table; defaults to `@pydantic/genai-prices`. */
  prices?: PriceLookup;
}

type Method = 'check' | 'usage' | 'outcome' | 'scope' | 'kill' | 'admin';

/** Longest text kept as evidence in an audit entry. */
const EVIDENCE_CHARS = 500;
const GLOBAL_LADDER = '*';

const clip = (value: unknown): unknown =>
  typeof value === 'string' && value.length > EVIDENCE_CHARS
    ? `${value.slice(0, EVIDENCE_CHARS)}…`
    : value;
const evidenceOf = (params: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, clip(v)]));

/**
 * Every runtime guard behind the engine's `check`, `usage` and `outcome`: run breaker,
 * iteration and stagnation, time, error rate, stuck detection, provider health, per-tool
 * breakers, budgets with reservations, and the safety switch; plus the automation ladder.
 *
 * Calls are synchronous and meant to run inside the engine's SQLite transaction: guard
 * state is written through the {@link GuardStateStore} in the same transaction, and the
 * returned `audit` entries and `events` are for the engine to append and (after commit)
 * publish. Any tripped verdict makes `allowed` false.
 */
export class GuardChain implements GuardPort {
  readonly clock: Clock;
  readonly store: GuardStateStore;
  readonly settings: () => GuardSettingsView;
  readonly budgets: BudgetGuard;
  readonly prices: PriceTable;
  readonly providers: ProviderHealth;
  readonly tools: ToolBreakers;
  readonly ladder: AutomationLadder;
  readonly safety: SafetySwitch;
  readonly run: RunBreaker;
  readonly stuck: StuckDetector;
  private readonly iteration: IterationBreaker;
  private readonly time: TimeBreaker;
  private readonly errorRate: ErrorRateBreaker;
  private readonly sessions = new Map<string, SessionGuards>();
  private readonly ladders = new Map<string, LadderState>();
  private notified = new ActionDeduplicator(60_000, 10_000);
  private notifiedWindow = 60_000;

  constructor(options: GuardChainOptions) {
    const { clock, store, settings } = options;
    this.clock = clock;
    this.store = store;
    this.settings = settings;
    const g = () => settings().guards;
    this.budgets = new BudgetGuard(clock, store, () => settings().budgets);
    this.prices = new PriceTable(() => g().prices.overrides, options.prices);
    this.providers = new ProviderHealth(clock, () => g().providers);
    this.loadProviders();
    this.tools = new ToolBreakers(clock, store, () => g().circuit);
    this.iteration = new IterationBreaker(() => g().iteration);
    this.time = new TimeBreaker(() => g().time);
    this.errorRate = new ErrorRateBreaker(() => g().errorRate);
    this.stuck = new StuckDetector(() => g().stuck);
    this.run = new RunBreaker(() => g().run, clock);
    this.safety = new SafetySwitch(() => g().safety);
    this.ladder = new AutomationLadder(() => g().ladder);
  }

  check(ctx: GuardContext, p: z.output<typeof CheckParams>): CheckOutcome {
    const now = this.clock.now();
    const s = this.session(ctx.sessionId);
    const verdicts: Verdict[] = [...this.run.check(s.get('run'))];
    if (p.iteration !== undefined || p.progress !== undefined) {
      verdicts.push(
        ...this.iteration.check(s.touch('iteration'), {
          phase: p.phase ?? 'default',
          iteration: p.iteration,
          progress: p.progress,
        }),
      );
    }
    const time =
      p.phase !== undefined && !(p.phase in s.get('time').phaseStartedAt)
        ? s.touch('time')
        : s.get('time');
    verdicts.push(...this.time.check(time, now, p.phase));
    verdicts.push(...this.errorRate.check(s.get('errors'), now));
    verdicts.push(...this.stuck.check(s.get('stuck'), now));
    if (p.provider !== undefined) verdicts.push(...this.providers.check(p.provider));
    const tool = p.tool !== undefined ? this.tools.get(ctx.agent, p.tool) : undefined;
    if (tool && tool.getState() === 'open') verdicts.push(this.toolVerdict(p.tool!, tool.stats()));
    const budget = this.budgets.check(ctx, p.phase, p.estimatedCostUsd ?? 0);
    verdicts.push(...budget);
    verdicts.push(...this.safety.check(s.get('safety'), p.tool));

    let allowed = !verdicts.some((v) => v.tripped);
    // A half-open tool admits a limited number of probes; take a slot only for a call that goes ahead.
    if (allowed && tool && tool.getState() === 'half_open' && !tool.tryAcquire()) {
      verdicts.push(this.toolVerdict(p.tool!, tool.stats()));
      allowed = false;
    }
    if (allowed && p.estimatedCostUsd) this.budgets.reserve(ctx, p.phase, p.estimatedCostUsd);

    let change: ModeChange | undefined;
    if (budget.some((v) => v.tripped && v.reason !== 'OPERATION_BUDGET_EXCEEDED')) {
      change = this.safety.onBudgetExhausted(s.touch('safety'), now);
    }
    s.flush();
    const mode = s.get('safety').mode;
    const effects = this.effects(ctx, 'check', verdicts, change, p);
    return {
      allowed,
      mode,
      verdicts,
      ...(mode === 'conservative' ? { restrictions: this.safety.restrictions() } : {}),
      ...effects,
    };
  }

  usage(ctx: GuardContext, p: z.output<typeof UsageParams>): UsageOutcome {
    const now = this.clock.now();
    const price = this.prices.costOf(p);
    const s = this.session(ctx.sessionId);
    const { verdicts, spent } = this.budgets.record(ctx, {
      phase: p.phase,
      model: p.model,
      operation: p.operation,
      inputTokens: p.inputTokens,
      outputTokens: p.outputTokens,
      costUsd: price.costUsd,
      priceSource: price.source,
    });
    // Token counts only matter (and are only written) when a token budget is set.
    const runConfig = this.settings().guards.run;
    if (runConfig.tokensPerStep > 0 || runConfig.tokensPerTask > 0) {
      verdicts.push(...this.run.recordTokens(s.touch('run'), p.inputTokens + p.outputTokens));
    }
    let change: ModeChange | undefined;
    if (
      verdicts.some(
        (v) => v.breaker === 'budget' && v.tripped && v.reason !== 'OPERATION_BUDGET_EXCEEDED',
      )
    ) {
      change = this.safety.onBudgetExhausted(s.touch('safety'), now);
    }
    s.flush();
    return {
      costUsd: price.costUsd,
      spent,
      verdicts,
      ...this.effects(ctx, 'usage', verdicts, change, {
        ...p,
        costUsd: price.costUsd,
        priceSource: price.source,
      }),
    };
  }

  outcome(ctx: GuardContext, p: z.output<typeof OutcomeParams>): OutcomeOutcome {
    const now = this.clock.now();
    const s = this.session(ctx.sessionId);
    const status = p.ok ? undefined : statusOf(p.httpStatus, p.message);
    const verdicts: Verdict[] = [];

    const errors = s.touch('errors');
    this.errorRate.record(errors, now, p.ok);
    if (p.provider !== undefined) {
      // A success on a healthy provider changes nothing worth a write.
      if (p.ok) {
        if (this.providers.recordSuccess(p.provider)) this.saveProvider(p.provider);
      } else {
        verdicts.push(...this.providers.recordFailure(p.provider, status, p.message));
        this.saveProvider(p.provider);
      }
    }
    if (p.tool !== undefined) {
      const tool = this.tools.get(ctx.agent, p.tool);
      const before = tool.getState();
      const clean = before === 'closed' && tool.stats().failures === 0;
      if (p.ok) tool.recordSuccess();
      else tool.recordFailure(p.message ?? p.source);
      if (before !== 'open' && tool.getState() === 'open') {
        verdicts.push(this.toolVerdict(p.tool, tool.stats()));
      }
      if (!(p.ok && clean)) this.tools.save(ctx.agent, p.tool);
    }
    if (p.ok ? p.output !== undefined : true) {
      verdicts.push(
        ...this.stuck.record(s.touch('stuck'), now, {
          ok: p.ok,
          output: p.output,
          message: p.message,
          tool: p.tool,
        }),
      );
    }
    // Only parts that change are touched, so a routine success writes little.
    if (!p.ok || s.get('run').attempts > 0) {
      verdicts.push(...this.run.recordOutcome(s.touch('run'), p.ok, p.source, p.message));
    }
    verdicts.push(...this.errorRate.check(errors, now));
    const sw = s.get('safety');
    const change = this.safety.onOutcome(
      !p.ok || sw.mode !== 'normal' || sw.errors.length ? s.touch('safety') : sw,
      now,
      { ok: p.ok, status, message: p.message, provider: p.provider, source: p.source },
      this.budgets.remainingPct(ctx),
    );
    s.flush();
    return { verdicts, ...this.effects(ctx, 'outcome', verdicts, change, p) };
  }

  mode(ctx: GuardContext): Mode {
    return this.session(ctx.sessionId).get('safety').mode;
  }

  spent(ctx: GuardContext): { session: number; day: number; budgetRemainingPct?: number } {
    const spent = this.budgets.spent(ctx);
    const pct = this.budgets.remainingPct(ctx);
    return pct === undefined ? spent : { ...spent, budgetRemainingPct: pct };
  }

  /** The restrictions an agent in conservative mode should apply; undefined in normal mode. */
  restrictions(ctx: GuardContext): Restrictions | undefined {
    return this.mode(ctx) === 'conservative' ? this.safety.restrictions() : undefined;
  }

  /**
   * An agent asks to widen its task (for example a `log` of type `scope_change`): while the
   * scope is frozen this stops the run with an escalation.
   */
  proposeScopeChange(ctx: GuardContext, description: string): OutcomeOutcome {
    const s = this.session(ctx.sessionId);
    const verdicts = this.run.proposeScopeChange(s.touch('run'), description);
    s.flush();
    return { verdicts, ...this.effects(ctx, 'scope', verdicts, undefined, { description }) };
  }

  /** The run breaker's kill switch for one session; `check` refuses until a human resets it. */
  kill(ctx: GuardContext, reason: string): OutcomeOutcome {
    const s = this.session(ctx.sessionId);
    const verdicts = this.run.kill(s.touch('run'), reason);
    s.flush();
    return { verdicts, ...this.effects(ctx, 'kill', verdicts, undefined, { reason }) };
  }

  /**
   * A session ended: counts a run on the automation ladder and drops the session's caches
   * (its stored state stays for the breakers view and a resume).
   */
  sessionEnded(ctx: GuardContext, status: 'completed' | 'failed' | 'aborted'): GuardEffects {
    const effects = this.ladderChange(ctx, (state, now, key, forbidden) =>
      this.ladder.recordRun(state, status === 'completed', now, key, forbidden),
    );
    this.sessions.delete(ctx.sessionId);
    this.budgets.forgetSession(ctx.sessionId);
    return effects;
  }

  /** A human decided a request of this session; feeds the ladder's approval rate. */
  recordDecision(ctx: GuardContext, approved: boolean): GuardEffects {
    return this.ladderChange(ctx, (state, now, key, forbidden) =>
      this.ladder.recordDecision(state, approved, now, key, forbidden),
    );
  }

  /** Whether the project's ladder level lets an `ask` action through without a human. */
  mayAutoApprove(
    ctx: GuardContext,
    action: string,
    risk: Risk,
  ): { autoApprove: boolean; notify: boolean; level: number } {
    const state = this.ladderState(ctx.project);
    return { ...this.ladder.mayAutoApprove(state, action, risk), level: state.level };
  }

  /** The ladder of a project (`undefined`: agents without a project). */
  ladderState(project?: string): LadderState {
    const key = project ?? GLOBAL_LADDER;
    let state = this.ladders.get(key);
    if (!state) {
      state =
        (this.store.loadState(`ladder:${key}`) as LadderState | undefined) ??
        this.ladder.newState();
      this.ladders.set(key, state);
    }
    return state;
  }

  saveLadder(project: string | undefined, state: LadderState): void {
    this.store.saveState(`ladder:${project ?? GLOBAL_LADDER}`, state);
  }

  /** The loaded (or stored) guard state of a session. */
  session(sessionId: string): SessionGuards {
    let s = this.sessions.get(sessionId);
    if (!s) {
      s = new SessionGuards(sessionId, this.store, () => this.clock.now());
      this.sessions.set(sessionId, s);
    }
    return s;
  }

  saveProvider(provider: string): void {
    const snap = this.providers.snapshot(provider);
    if (snap) this.store.saveState(`provider:${provider}`, snap);
  }

  /**
   * Rebuilds guard state from the store after a rollback (see {@link GuardPort.reload}).
   * Session parts, ladders and cached spend totals are loaded lazily, so dropping them is
   * enough; breakers are rebuilt as at start-up. Two things are kept on purpose: budget
   * reservations, which live in memory only and of which a lost one only makes budgets
   * stricter until it expires; and the deduplicator of published events, which decides
   * nothing and which a reset would let a failing caller use to flood the person's view.
   */
  reload(): void {
    this.sessions.clear();
    this.ladders.clear();
    this.budgets.forgetTotals();
    this.providers.clear();
    this.loadProviders();
    this.tools.reload();
  }

  private loadProviders(): void {
    for (const { key, value } of this.store.listStates('provider:')) {
      this.providers.restore(key.slice('provider:'.length), value as ProviderSnapshot);
    }
  }

  /** Cancels every breaker timer (shutdown). */
  dispose(): void {
    this.providers.dispose();
    this.tools.dispose();
  }

  /** Audit entries and events for verdicts and a mode change. */
  effects(
    ctx: Partial<GuardContext>,
    method: Method,
    verdicts: Verdict[],
    change: ModeChange | LevelChange | undefined,
    params: object,
  ): GuardEffects {
    const audit: GuardEffects['audit'] = [];
    const events: GatehouseEvent[] = [];
    const now = this.clock.now();
    const window = this.settings().guards.eventDedupWindowMs;
    const evidence = evidenceOf(params);
    for (const v of verdicts) {
      if (!v.tripped && !v.warning) continue;
      const type = v.tripped ? 'guard.tripped' : 'guard.warning';
      const key = `${ctx.sessionId ?? ''}|${type}|${v.breaker}|${v.reason ?? ''}`;
      const seen = this.dedup(window).checkAndRecord(key, now);
      const repeat = seen.isDuplicate;
      // Every trip is audited; a warning only once per window, like its event.
      if (v.tripped || !repeat) {
        audit.push({
          type,
          data: { method, ...v, evidence, ...(repeat ? { repeat: seen.entry.count } : {}) },
        });
      }
      if (!repeat) {
        events.push({ type, sessionId: ctx.sessionId, agent: ctx.agent, verdict: v });
      }
    }
    if (change && 'mode' in change && ctx.sessionId && ctx.agent) {
      audit.push({
        type: 'mode.changed',
        data: { method, mode: change.mode, reason: change.reason, evidence },
      });
      events.push({
        type: 'mode.changed',
        sessionId: ctx.sessionId,
        agent: ctx.agent,
        mode: change.mode,
        reason: change.reason,
      });
    }
    return { audit, events };
  }

  /** The deduplicator of published events, rebuilt when its window setting changes. */
  private dedup(windowMs: number): ActionDeduplicator {
    if (windowMs !== this.notifiedWindow) {
      this.notified = new ActionDeduplicator(windowMs, 10_000);
      this.notifiedWindow = windowMs;
    }
    return this.notified;
  }

  private ladderChange(
    ctx: GuardContext,
    apply: (
      state: LadderState,
      now: number,
      project: string | undefined,
      forbidden: boolean,
    ) => LevelChange | undefined,
  ): GuardEffects {
    const state = this.ladderState(ctx.project);
    const change = apply(state, this.clock.now(), ctx.project, ctx.noAutoLevel === true);
    this.saveLadder(ctx.project, state);
    return change ? this.ladderEffects(ctx.project, change) : { audit: [], events: [] };
  }

  ladderEffects(project: string | undefined, change: LevelChange): GuardEffects {
    const data = { project: project ?? GLOBAL_LADDER, ...change };
    return {
      audit: [{ type: 'ladder.changed', data }],
      events: [
        {
          type: 'ladder.changed',
          project: project ?? GLOBAL_LADDER,
          from: change.from,
          to: change.to,
          by: change.by,
          reason: change.reason,
        },
      ],
    };
  }

  private toolVerdict(tool: string, stats: ReturnType<CircuitBreaker['stats']>): Verdict {
    const wait =
      stats.state === 'open'
        ? `retry in ${Math.ceil(stats.retryInMs / 1000)} s`
        : 'its probes are in flight';
    return tripped(
      'tool',
      'TOOL_CIRCUIT_OPEN',
      stats.failures || stats.failureThreshold,
      stats.failureThreshold,
      `Tool ${tool} failed too often (${stats.lastError ?? 'errors'}); ${wait}.`,
      stats.state,
    );
  }
}
