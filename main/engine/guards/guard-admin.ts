import type { z } from 'zod';
import { iso } from '../../../shared/clock';
import type { GuardEffects } from '../guard-port';
import { notFound } from '../../../shared/protocol/errors';
import type {
  BreakerRow,
  GuardsBudgetsResult,
  GuardsRecoverResult,
  GuardsResetResult,
  LadderResult,
} from '../../../shared/protocol/guard-methods';
import { LADDER_LEVELS } from './automation-ladder';
import type { GuardChain } from './guard-chain';
import { localDay } from './local-day';
import type { RunState } from './run-breaker';
import type { SwitchState } from './safety-switch';
import { SESSION_PARTS, type SessionPart } from './session-guards';
import type { StuckState } from './stuck-detector';
import type { ErrorRateState } from './error-rate-breaker';
import { own } from '../../../shared/own';

/** A mutating admin call's answer and what the engine must audit and publish. */
export interface AdminOutcome<R> {
  result: R;
  effects: GuardEffects;
}

const DAY_MS = 86_400_000;
const NO_EFFECTS = (): GuardEffects => ({ audit: [], events: [] });

/** Which session part a reset name of the form `KIND:SESSION` clears. */
const RESETTABLE: Record<string, SessionPart[] | 'budget'> = {
  run: ['run'],
  stuck: ['stuck'],
  iteration: ['iteration'],
  time: ['time'],
  error_rate: ['errors'],
  safety_switch: ['safety'],
  budget: 'budget',
  session: [...SESSION_PARTS],
};

/**
 * The human side of the guardrails: budgets and spend, the breakers list, resets, manual
 * recovery from conservative mode, and the automation ladder. The admin service routes
 * `guards.*` and `ladder.*` to it; mutating calls return effects for the engine to audit
 * and publish in its transaction, like the guard chain's.
 */
export class GuardAdmin {
  constructor(
    private readonly chain: GuardChain,
    /** The agent of a session, for per-agent budgets when recovering (from the sessions store). */
    private readonly agentOf: (sessionId: string) => string | undefined = () => undefined,
  ) {}

  budgets(params: { days: number }): z.output<typeof GuardsBudgetsResult> {
    const settings = this.chain.settings().budgets;
    const today = this.chain.budgets.today();
    const sinceDay = localDay(this.chain.clock.now() - (params.days - 1) * DAY_MS);
    const store = this.chain.store;
    return {
      day: today.day,
      limits: {
        perDayUsd: settings.perDayUsd,
        perSessionUsd: settings.perSessionUsd,
        perOperationUsd: settings.perOperationUsd,
        warnAtPct: settings.warnAtPct,
        perPhaseUsd: settings.perPhaseUsd,
        perAgent: settings.perAgent,
        agents: settings.agents,
      },
      spent: {
        dayUsd: today.spentUsd,
        reservedUsd: today.reservedUsd,
        ...(settings.perDayUsd > 0
          ? {
              remainingDayUsd: Math.max(0, settings.perDayUsd - today.spentUsd - today.reservedUsd),
            }
          : {}),
      },
      byModel: store.spendBy('model', { day: today.day }),
      byAgent: store.spendBy('agent', { day: today.day }),
      days: store.spendBy('day', { sinceDay }).sort((a, b) => a.key.localeCompare(b.key)),
    };
  }

  breakers(): { breakers: BreakerRow[] } {
    const rows: BreakerRow[] = [];
    for (const p of this.chain.providers.list()) {
      rows.push({
        name: `provider:${p.provider}`,
        kind: 'provider',
        state: p.state,
        reason: p.errorClass,
        current: p.failures,
        threshold: p.threshold,
        retryInMs: p.retryInMs,
        totalTrips: p.totalTrips,
        ...(p.lastStatus ? { detail: `last status ${p.lastStatus}` } : {}),
      });
    }
    for (const { name, breaker } of this.chain.tools.list()) {
      const s = breaker.stats();
      rows.push({
        name,
        kind: 'tool',
        state: s.state,
        current: s.failures,
        threshold: s.failureThreshold,
        retryInMs: s.retryInMs,
        totalTrips: s.totalTrips,
        ...(s.lastError ? { detail: s.lastError } : {}),
      });
    }
    rows.push(...this.sessionRows());
    return { breakers: rows };
  }

  reset(params: {
    name: string;
    falsePositive: boolean;
    project?: string;
  }): AdminOutcome<z.output<typeof GuardsResetResult>> {
    const { name } = params;
    const reset: string[] = [];
    if (name.startsWith('provider:')) {
      const provider = name.slice('provider:'.length);
      if (!this.chain.providers.reset(provider)) throw notFound(`breaker ${name}`);
      this.chain.saveProvider(provider);
      reset.push(name);
    } else if (name.startsWith('tool:')) {
      const breaker = this.chain.tools.find(name);
      if (!breaker) throw notFound(`breaker ${name}`);
      breaker.reset();
      this.chain.tools.saveByName(name);
      reset.push(name);
    } else {
      const colon = name.indexOf(':');
      const kind = colon > 0 ? name.slice(0, colon) : '';
      const sessionId = name.slice(colon + 1);
      const parts = own(RESETTABLE, kind);
      if (!parts || !sessionId || !this.knownSession(sessionId)) throw notFound(`breaker ${name}`);
      if (parts === 'budget') {
        this.chain.budgets.releaseReservations(sessionId);
      } else {
        const session = this.chain.session(sessionId);
        for (const part of parts) session.reset(part);
        session.flush();
      }
      reset.push(name);
    }
    const effects: GuardEffects = {
      audit: reset.map((breaker) => ({
        type: 'guard.reset',
        data: { breaker, by: 'human', falsePositive: params.falsePositive },
      })),
      events: reset.map((breaker) => ({ type: 'guard.reset' as const, breaker })),
    };
    if (params.falsePositive) {
      const state = this.chain.ladderState(params.project);
      const change = this.chain.ladder.recordFalsePositive(
        state,
        this.chain.clock.now(),
        params.project,
      );
      this.chain.saveLadder(params.project, state);
      if (change) merge(effects, this.chain.ladderEffects(params.project, change));
    }
    return { result: { reset }, effects };
  }

  /** A human's "try again" on a session in conservative mode. */
  recover(params: { sessionId: string }): AdminOutcome<z.output<typeof GuardsRecoverResult>> {
    if (!this.knownSession(params.sessionId)) throw notFound(`session ${params.sessionId}`);
    const agent = this.agentOf(params.sessionId) ?? '';
    const ctx = { sessionId: params.sessionId, agent };
    const session = this.chain.session(params.sessionId);
    const state = session.touch('safety');
    const outcome = this.chain.safety.recoverManually(state, this.chain.budgets.remainingPct(ctx));
    session.flush();
    const effects = outcome.change
      ? this.chain.effects(ctx, 'admin', [], outcome.change, { action: 'manual_recovery' })
      : NO_EFFECTS();
    return {
      result: {
        recovered: outcome.recovered,
        mode: state.mode,
        ...(outcome.reason ? { reason: outcome.reason } : {}),
      },
      effects,
    };
  }

  ladder(params: { project?: string }): z.output<typeof LadderResult> {
    const state = this.chain.ladderState(params.project);
    const def = LADDER_LEVELS[state.level]!;
    const rates = this.chain.ladder.rates(state.metrics);
    const next = state.level + 1 < LADDER_LEVELS.length ? state.level + 1 : undefined;
    return {
      project: params.project ?? '*',
      level: state.level,
      name: def.name,
      description: def.description,
      autoChanges: this.chain.ladder.autoAllowed(params.project),
      metrics: {
        ...state.metrics,
        falsePositiveRate: rates.falsePositiveRate,
        approvalRate: rates.approvalRate,
      },
      ...(next !== undefined
        ? { next: { level: next, unmet: this.chain.ladder.unmet(state, next) } }
        : {}),
      history: state.history.map((h) => ({ ...h, at: iso(h.at) })),
    };
  }

  setLadderLevel(params: {
    project?: string;
    level: number;
    reason?: string;
  }): AdminOutcome<z.output<typeof LadderResult>> {
    const state = this.chain.ladderState(params.project);
    const change = this.chain.ladder.setLevel(
      state,
      params.level,
      this.chain.clock.now(),
      params.reason ?? 'set by a human',
    );
    this.chain.saveLadder(params.project, state);
    return {
      result: this.ladder(params),
      effects: change ? this.chain.ladderEffects(params.project, change) : NO_EFFECTS(),
    };
  }

  private knownSession(sessionId: string): boolean {
    return this.chain.store.listStates(`session:${sessionId}:`).length > 0;
  }

  /** Session-scoped guards that are not closed: stopped runs, stuck latches, conservative mode, error rates. */
  private sessionRows(): BreakerRow[] {
    const now = this.chain.clock.now();
    const rows: BreakerRow[] = [];
    for (const { key, value } of this.chain.store.listStates('session:')) {
      const cut = key.lastIndexOf(':');
      const sessionId = key.slice('session:'.length, cut);
      const part = key.slice(cut + 1) as SessionPart;
      if (part === 'run') {
        const stopped = (value as RunState).stopped;
        if (stopped) {
          rows.push({
            name: `run:${sessionId}`,
            kind: 'run',
            state: 'open',
            reason: stopped.reason,
            current: stopped.current,
            threshold: stopped.threshold,
            detail: stopped.message,
          });
        }
      } else if (part === 'stuck') {
        const latch = (value as StuckState).latch;
        if (latch && latch.until > now) {
          rows.push({
            name: `stuck:${sessionId}`,
            kind: 'stuck',
            state: 'open',
            reason: latch.reason,
            current: latch.current,
            threshold: latch.threshold,
            retryInMs: latch.until - now,
            detail: latch.detail,
          });
        }
      } else if (part === 'safety') {
        const sw = value as SwitchState;
        if (sw.mode === 'conservative') {
          rows.push({
            name: `safety_switch:${sessionId}`,
            kind: 'safety_switch',
            state: 'open',
            reason: sw.reason,
            current: sw.errors.length,
            threshold: this.chain.settings().guards.safety.recentErrors,
            detail: 'conservative mode',
            restrictions: this.chain.safety.restrictions(),
          });
        }
      } else if (part === 'errors') {
        const config = this.chain.settings().guards.errorRate;
        const events = (value as ErrorRateState).events.filter(([t]) => t > now - config.windowMs);
        const errors = events.reduce((n, [, e]) => n + e, 0);
        if (errors > 0 && events.length >= config.minEvents) {
          const rate = errors / events.length;
          rows.push({
            name: `error_rate:${sessionId}`,
            kind: 'error_rate',
            state: rate >= config.criticalRate ? 'open' : 'closed',
            reason:
              rate >= config.criticalRate
                ? 'ERROR_RATE_CRITICAL'
                : rate >= config.warningRate
                  ? 'ERROR_RATE_WARNING'
                  : undefined,
            current: rate,
            threshold: config.criticalRate,
            detail: `${errors} of ${events.length} outcomes failed`,
          });
        }
      }
    }
    return rows;
  }
}

function merge(into: GuardEffects, from: GuardEffects): void {
  into.audit.push(...from.audit);
  into.events.push(...from.events);
}
