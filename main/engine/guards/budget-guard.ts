import type { Verdict } from '../../../shared/domain';
import type { BudgetSettings } from '../../../shared/settings/budgets';
import type { Clock } from '../../../shared/clock';
import type { GuardStateStore, SpendRow } from './guard-state-store';
import { localDay, nextLocalMidnight } from './local-day';
import { atWarnLevel, tripped, usd, warning } from './verdict';
import { own } from '../../../shared/own';

/** Who is spending. */
export interface SpendContext {
  sessionId: string;
  agent: string;
  project?: string | undefined;
}

/** Money set aside by a `check` until the matching `usage` settles it. */
interface Reservation {
  id: number;
  sessionId: string;
  agent: string;
  phase?: string | undefined;
  amount: number;
  at: number;
}

/** One budget as it applies to one call. */
interface Scope {
  reason: string;
  label: string;
  spent: number;
  reserved: number;
  limit: number;
}

/**
 * Cost budgets per phase, session and day, and per-agent caps per session, day and single
 * operation (seeds 000 and 002). `check` with an estimate reserves that amount, so that
 * concurrent agents cannot together overshoot a budget: the engine runs one call at a time,
 * so of two agents racing for the last dollar exactly one gets it. `usage` settles the
 * oldest reservation of the session and records the real cost in the ledger. Daily totals
 * belong to the local calendar day and start from zero at local midnight.
 *
 * Reservations live in memory only: after a restart agents simply check again.
 */
export class BudgetGuard {
  private day = '';
  private dayEndsAt = 0;
  private dayTotal = 0;
  private readonly agentDay = new Map<string, number>();
  private readonly sessionTotals = new Map<string, number>();
  private readonly phaseTotals = new Map<string, number>();
  private reservations: Reservation[] = [];
  private nextReservation = 1;
  /** Reserved amounts by scope key (`*`, `s:SESSION`, `a:AGENT`, `p:SESSION\0PHASE`), kept in step with `reservations`. */
  private readonly held = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly store: GuardStateStore,
    private readonly config: () => BudgetSettings,
  ) {}

  /** Verdicts for a call about to spend `estimate` (0 when unknown). */
  check(ctx: SpendContext, phase: string | undefined, estimate: number): Verdict[] {
    const now = this.clock.now();
    this.prune(now);
    const out: Verdict[] = [];
    for (const scope of this.scopes(ctx, phase, now)) {
      const committed = scope.spent + scope.reserved;
      const after = committed + estimate;
      const over = committed >= scope.limit || after > scope.limit + 1e-9;
      this.judge(out, scope, after, over, () =>
        committed >= scope.limit
          ? `${scope.label} budget of ${usd(scope.limit)} is used up (${usd(committed)} spent or reserved).`
          : `${scope.label} budget of ${usd(scope.limit)} would be exceeded: ${usd(committed)} spent or reserved + ${usd(estimate)} estimated.`,
      );
    }
    const opLimit = this.operationLimit(ctx.agent);
    if (opLimit > 0 && estimate > opLimit) {
      out.push(
        tripped(
          'budget',
          'OPERATION_BUDGET_EXCEEDED',
          estimate,
          opLimit,
          `One operation may cost at most ${usd(opLimit)}; this one is estimated at ${usd(estimate)}.`,
        ),
      );
    }
    return out;
  }

  /** Sets `amount` aside for the session until its next `usage`; returns the reservation id. */
  reserve(ctx: SpendContext, phase: string | undefined, amount: number): number {
    const id = this.nextReservation++;
    const r = {
      id,
      sessionId: ctx.sessionId,
      agent: ctx.agent,
      phase,
      amount,
      at: this.clock.now(),
    };
    this.reservations.push(r);
    this.hold(r, 1);
    return id;
  }

  /**
   * Records the real cost of a call, settling the session's oldest reservation (of the same
   * phase when there is one), and returns the verdicts of the budgets after this spend.
   */
  record(
    ctx: SpendContext,
    row: Omit<SpendRow, 'at' | 'day' | 'sessionId' | 'agent' | 'project'>,
  ): { verdicts: Verdict[]; spent: { session: number; day: number } } {
    const now = this.clock.now();
    this.prune(now);
    this.rollDay(now);
    this.settle(ctx.sessionId, row.phase);
    // Warm the cached totals before the row lands, so that a first load does not count it twice.
    const agentDay = this.agentDaySpent(ctx.agent);
    const session = this.sessionSpent(ctx.sessionId);
    const phase = row.phase === undefined ? 0 : this.phaseSpent(ctx.sessionId, row.phase);
    this.store.appendSpend({
      ...row,
      at: now,
      day: this.day,
      sessionId: ctx.sessionId,
      agent: ctx.agent,
      project: ctx.project,
    });
    this.dayTotal += row.costUsd;
    this.agentDay.set(ctx.agent, agentDay + row.costUsd);
    this.sessionTotals.set(ctx.sessionId, session + row.costUsd);
    if (row.phase !== undefined) {
      this.phaseTotals.set(`${ctx.sessionId}\u0000${row.phase}`, phase + row.costUsd);
    }

    const out: Verdict[] = [];
    const opLimit = this.operationLimit(ctx.agent);
    if (opLimit > 0 && row.costUsd > opLimit) {
      out.push(
        tripped(
          'budget',
          'OPERATION_BUDGET_EXCEEDED',
          row.costUsd,
          opLimit,
          `That call cost ${usd(row.costUsd)}, over the ${usd(opLimit)} limit for one operation.`,
        ),
      );
    }
    for (const scope of this.scopes(ctx, row.phase, now)) {
      const committed = scope.spent + scope.reserved;
      this.judge(
        out,
        scope,
        committed,
        committed >= scope.limit,
        () => `${scope.label} budget of ${usd(scope.limit)} is used up.`,
      );
    }
    return { verdicts: out, spent: this.spent(ctx) };
  }

  spent(ctx: SpendContext): { session: number; day: number } {
    this.rollDay(this.clock.now());
    return { session: this.sessionSpent(ctx.sessionId), day: this.dayTotal };
  }

  /** The smallest share left of the session and day budgets, in percent; undefined if none. */
  remainingPct(ctx: SpendContext): number | undefined {
    const now = this.clock.now();
    let least: number | undefined;
    for (const scope of this.scopes(ctx, undefined, now)) {
      const left = Math.max(0, (100 * (scope.limit - scope.spent)) / scope.limit);
      least = least === undefined ? left : Math.min(least, left);
    }
    return least;
  }

  /** Today's global figures, for `guards.budgets`. */
  today(): { day: string; spentUsd: number; reservedUsd: number; reservations: number } {
    const now = this.clock.now();
    this.prune(now);
    this.rollDay(now);
    return {
      day: this.day,
      spentUsd: this.dayTotal,
      reservedUsd: this.held.get('*') ?? 0,
      reservations: this.reservations.length,
    };
  }

  /** Drops every cached total; the next call sums them from the ledger again (a rollback). */
  forgetTotals(): void {
    this.dayEndsAt = 0;
    this.sessionTotals.clear();
    this.phaseTotals.clear();
    this.agentDay.clear();
  }

  /** Drops a session's cached totals and reservations (the session ended). */
  forgetSession(sessionId: string): void {
    this.sessionTotals.delete(sessionId);
    for (const key of [...this.phaseTotals.keys()]) {
      if (key.startsWith(`${sessionId}\u0000`)) this.phaseTotals.delete(key);
    }
    this.releaseReservations(sessionId);
  }

  /** Releases every reservation of a session (a human reset of its budget breaker). */
  releaseReservations(sessionId?: string): number {
    const before = this.reservations.length;
    this.reservations = this.reservations.filter((r) => {
      const release = sessionId === undefined || r.sessionId === sessionId;
      if (release) this.hold(r, -1);
      return !release;
    });
    return before - this.reservations.length;
  }

  private scopes(ctx: SpendContext, phase: string | undefined, now: number): Scope[] {
    this.rollDay(now);
    const config = this.config();
    const caps = { ...config.perAgent, ...config.agents[ctx.agent] };
    const scopes: Scope[] = [];
    const add = (
      reason: string,
      label: string,
      limit: number | undefined,
      spent: () => number,
      heldKey: string,
    ): void => {
      if (!limit || limit <= 0) return;
      scopes.push({ reason, label, limit, spent: spent(), reserved: this.held.get(heldKey) ?? 0 });
    };
    add('DAILY_BUDGET', 'Daily', config.perDayUsd, () => this.dayTotal, '*');
    add(
      'SESSION_BUDGET',
      'Session',
      config.perSessionUsd,
      () => this.sessionSpent(ctx.sessionId),
      `s:${ctx.sessionId}`,
    );
    if (phase !== undefined) {
      add(
        'PHASE_BUDGET',
        `Phase ${phase}`,
        own(config.perPhaseUsd, phase),
        () => this.phaseSpent(ctx.sessionId, phase),
        `p:${ctx.sessionId}\u0000${phase}`,
      );
    }
    add(
      'AGENT_DAILY_BUDGET',
      `Agent ${ctx.agent} daily`,
      caps.perDayUsd,
      () => this.agentDaySpent(ctx.agent),
      `a:${ctx.agent}`,
    );
    add(
      'AGENT_SESSION_BUDGET',
      `Agent ${ctx.agent} session`,
      caps.perSessionUsd,
      () => this.sessionSpent(ctx.sessionId),
      `s:${ctx.sessionId}`,
    );
    return scopes;
  }

  /** A trip when `over`, else a warning once `amount` reaches the warning share of the limit. */
  private judge(
    out: Verdict[],
    scope: Scope,
    amount: number,
    over: boolean,
    tripMessage: () => string,
  ): void {
    if (over) {
      out.push(tripped('budget', `${scope.reason}_EXCEEDED`, amount, scope.limit, tripMessage()));
    } else if (atWarnLevel(amount, scope.limit, this.config().warnAtPct)) {
      const message = `${scope.label} at ${usd(amount)} of ${usd(scope.limit)}.`;
      out.push(warning('budget', `${scope.reason}_WARNING`, amount, scope.limit, message));
    }
  }

  private operationLimit(agent: string): number {
    const config = this.config();
    const caps = { ...config.perAgent, ...own(config.agents, agent) };
    const limits = [config.perOperationUsd, caps.perOperationUsd ?? 0].filter((l) => l > 0);
    return limits.length ? Math.min(...limits) : 0;
  }

  private settle(sessionId: string, phase: string | undefined): void {
    let index = this.reservations.findIndex((r) => r.sessionId === sessionId && r.phase === phase);
    if (index < 0) index = this.reservations.findIndex((r) => r.sessionId === sessionId);
    if (index >= 0) this.hold(this.reservations.splice(index, 1)[0]!, -1);
  }

  /** Adds (`sign` 1) or removes (-1) a reservation from the per-scope totals. */
  private hold(r: Reservation, sign: 1 | -1): void {
    const keys = ['*', `s:${r.sessionId}`, `a:${r.agent}`];
    if (r.phase !== undefined) keys.push(`p:${r.sessionId}\u0000${r.phase}`);
    for (const key of keys) {
      const next = (this.held.get(key) ?? 0) + sign * r.amount;
      if (next > 1e-12) this.held.set(key, next);
      else this.held.delete(key);
    }
  }

  private prune(now: number): void {
    const ttl = this.config().reservationTtlMs;
    if (this.reservations.length && now - this.reservations[0]!.at >= ttl) {
      this.reservations = this.reservations.filter((r) => {
        const live = now - r.at < ttl;
        if (!live) this.hold(r, -1);
        return live;
      });
    }
  }

  /** Starts a new day's totals at local midnight; loads today's totals after a restart. */
  private rollDay(now: number): void {
    if (now < this.dayEndsAt) return;
    this.day = localDay(now);
    this.dayEndsAt = nextLocalMidnight(now);
    this.dayTotal = this.store.sumSpend({ day: this.day });
    this.agentDay.clear();
  }

  private sessionSpent(sessionId: string): number {
    let total = this.sessionTotals.get(sessionId);
    if (total === undefined) {
      total = this.store.sumSpend({ sessionId });
      this.sessionTotals.set(sessionId, total);
    }
    return total;
  }

  private phaseSpent(sessionId: string, phase: string): number {
    const key = `${sessionId}\u0000${phase}`;
    let total = this.phaseTotals.get(key);
    if (total === undefined) {
      total = this.store.sumSpend({ sessionId, phase });
      this.phaseTotals.set(key, total);
    }
    return total;
  }

  private agentDaySpent(agent: string): number {
    let total = this.agentDay.get(agent);
    if (total === undefined) {
      total = this.store.sumSpend({ agent, day: this.day });
      this.agentDay.set(agent, total);
    }
    return total;
  }
}
