import type { z } from 'zod';
import type { Mode, Risk, Verdict } from '../../../shared/domain';
import type {
  CheckParams,
  OutcomeParams,
  UsageParams,
} from '../../../shared/protocol/agent-methods';
import type { BreakerRow } from '../../../shared/protocol/guard-methods';
import type {
  CheckOutcome,
  GuardContext,
  GuardEffects,
  GuardPort,
  OutcomeOutcome,
  UsageOutcome,
} from './guard-port';
import type { GuardCall, GuardDescription } from './guard';
import type { EffectSource } from './guard-effects';
import {
  createGuards,
  describeGuards,
  resetGuards,
  type GuardChainOptions,
  type GuardSet,
} from './guard-list';
import type { ProjectLadders } from './project-ladders';
import { statusOf } from './provider-health';
import type { ModeChange, Restrictions } from './safety-switch';
import type { SessionGuards } from './session-guards';

export type { GuardChainOptions } from './guard-list';

type Hook = 'check' | 'onOutcome' | 'onUsage';

/**
 * Every runtime guard behind the engine's `check`, `usage` and `outcome`, as one list of
 * `Guard`s called in order: run breaker, iteration and stagnation, time, error rate,
 * stuck detection, provider health, per-tool breakers, budgets with reservations, and the
 * safety switch (last, so that it sees an exhausted budget). Plus the automation ladders.
 *
 * Calls are synchronous and meant to run inside the engine's SQLite transaction: guard
 * state is written through the {@link GuardStateStore} in the same transaction, and the
 * returned `audit` entries and `events` are for the engine to append and (after commit)
 * publish. Any tripped verdict makes `allowed` false.
 */
export class GuardChain implements GuardPort {
  /** The automation ladder of every project. */
  readonly ladders: ProjectLadders;
  private readonly g: GuardSet;

  constructor(private readonly options: GuardChainOptions) {
    this.g = createGuards(options);
    this.ladders = this.g.ladders;
  }

  check(ctx: GuardContext, p: z.output<typeof CheckParams>): CheckOutcome {
    const call = this.call(ctx, p, 'check');
    let allowed = !call.verdicts.some((v) => v.tripped);
    for (const guard of this.g.list) {
      const refused = allowed ? guard.admit?.(call) : undefined;
      if (refused?.length) {
        call.verdicts.push(...refused);
        allowed = false;
      }
    }
    const mode = this.g.safety.mode(call.session);
    return {
      allowed,
      mode,
      verdicts: call.verdicts,
      ...(mode === 'conservative' ? { restrictions: this.g.safety.restrictions() } : {}),
      ...this.g.effects.ofCall(call, 'check', p),
    };
  }

  usage(ctx: GuardContext, p: z.output<typeof UsageParams>): UsageOutcome {
    const price = this.g.prices.costOf(p);
    const params = { ...p, costUsd: price.costUsd, priceSource: price.source };
    const call = this.call(ctx, params, 'onUsage');
    return {
      costUsd: price.costUsd,
      spent: this.g.budgets.spent(ctx),
      verdicts: call.verdicts,
      ...this.g.effects.ofCall(call, 'usage', params),
    };
  }

  outcome(ctx: GuardContext, p: z.output<typeof OutcomeParams>): OutcomeOutcome {
    const status = p.ok ? undefined : statusOf(p.httpStatus, p.message);
    const call = this.call(ctx, p, 'onOutcome', status);
    return { verdicts: call.verdicts, ...this.g.effects.ofCall(call, 'outcome', p) };
  }

  mode(ctx: GuardContext): Mode {
    return this.g.safety.mode(this.session(ctx.sessionId));
  }

  spent(ctx: GuardContext): { session: number; day: number; budgetRemainingPct?: number } {
    const spent = this.g.budgets.spent(ctx);
    const pct = this.g.budgets.remainingPct(ctx);
    return pct === undefined ? spent : { ...spent, budgetRemainingPct: pct };
  }

  /** The restrictions an agent in conservative mode should apply; undefined in normal mode. */
  restrictions(ctx: GuardContext): Restrictions | undefined {
    return this.mode(ctx) === 'conservative' ? this.g.safety.restrictions() : undefined;
  }

  /** An agent asks to widen its task: while the scope is frozen this stops the run. */
  proposeScopeChange(ctx: GuardContext, description: string): OutcomeOutcome {
    return this.stopRun(ctx, 'scope', { description }, (s) =>
      this.g.run.proposeScopeChange(s, description),
    );
  }

  /** The run breaker's kill switch for one session; `check` refuses until a human resets it. */
  kill(ctx: GuardContext, reason: string): OutcomeOutcome {
    return this.stopRun(ctx, 'kill', { reason }, (s) => this.g.run.kill(s, reason));
  }

  /**
   * A session ended: counts a run on the automation ladder and drops the session's caches
   * (its stored state stays for the breakers view and a resume).
   */
  sessionEnded(ctx: GuardContext, status: 'completed' | 'failed' | 'aborted'): GuardEffects {
    const effects = this.g.ladders.sessionEnded(ctx, status);
    this.g.sessions.forget(ctx.sessionId);
    this.g.budgets.forgetSession(ctx.sessionId);
    return effects;
  }

  recordDecision(ctx: GuardContext, approved: boolean): GuardEffects {
    return this.g.ladders.recordDecision(ctx, approved);
  }

  mayAutoApprove(
    ctx: GuardContext,
    action: string,
    risk: Risk,
  ): { autoApprove: boolean; notify: boolean; level: number } {
    return this.g.ladders.mayAutoApprove(ctx, action, risk);
  }

  /** The loaded (or stored) guard state of a session. */
  session(sessionId: string): SessionGuards {
    return this.g.sessions.get(sessionId);
  }

  /**
   * What the guards show a person: the breakers view (providers and tools first, then the
   * session guards, session by session), or with `budgetDays` the spend report.
   */
  describe(budgetDays?: number): { breakers: BreakerRow[]; budgets?: GuardDescription['budgets'] } {
    return describeGuards(this.g, this.options.clock.now(), budgetDays);
  }

  /** A human reset of the breaker `name`; false when there is no such breaker. */
  reset(name: string): boolean {
    return resetGuards(this.g.list, name);
  }

  /** A human's "try again" on a session in conservative mode; undefined for an unknown session. */
  recover(
    ctx: GuardContext,
  ):
    | { recovered: boolean; mode: ModeChange['mode']; reason?: string; effects: GuardEffects }
    | undefined {
    const out = this.g.safety.recover(ctx);
    if (!out) return undefined;
    const { change, ...result } = out;
    const evidence = { action: 'manual_recovery' };
    return { ...result, effects: this.g.effects.effects(ctx, 'admin', [], change, evidence) };
  }

  /**
   * Rebuilds guard state from the store after a rollback (see {@link GuardPort.reload}).
   * Session parts, ladders and cached spend totals are loaded lazily, so dropping them is
   * enough; breakers are rebuilt on next use. Two things are kept on purpose: budget
   * reservations, which live in memory only and of which a lost one only makes budgets
   * stricter until it expires; and the deduplicator of published events, which decides
   * nothing and which a reset would let a failing caller use to flood the person's view.
   */
  reload(): void {
    this.g.sessions.clear();
    this.g.ladders.clear();
    for (const guard of this.g.list) guard.reload?.();
  }

  /** Cancels every breaker timer (shutdown). */
  dispose(): void {
    for (const guard of this.g.list) guard.dispose?.();
  }

  /** Runs one hook of every guard, in order, and writes back the session state they changed. */
  private call<P, H extends Hook>(
    ctx: GuardContext,
    params: P,
    hook: H,
    status?: number,
  ): GuardCall<P> & { verdicts: Verdict[]; status?: number | undefined } {
    const call = {
      ctx,
      params,
      now: this.options.clock.now(),
      session: this.session(ctx.sessionId),
      verdicts: [] as Verdict[],
      status,
      change: undefined as ModeChange | undefined,
    };
    for (const guard of this.g.list) {
      const run = guard[hook] as ((c: typeof call) => Verdict[]) | undefined;
      const verdicts = run?.call(guard, call);
      if (verdicts?.length) call.verdicts.push(...verdicts);
    }
    call.session.flush();
    return call;
  }

  private stopRun(
    ctx: GuardContext,
    source: EffectSource,
    evidence: object,
    stop: (session: SessionGuards) => Verdict[],
  ): OutcomeOutcome {
    const session = this.session(ctx.sessionId);
    const verdicts = stop(session);
    session.flush();
    return { verdicts, ...this.g.effects.effects(ctx, source, verdicts, undefined, evidence) };
  }
}
