import type { BreakerRow } from '../../../shared/protocol/guard-methods';
import type { BudgetSettings } from '../../../shared/settings/budgets';
import type { GuardSettings } from '../../../shared/settings/guards';
import type { Clock } from '../../../shared/clock';
import { AutomationLadder } from './automation-ladder';
import { BudgetGuard } from './budget-guard';
import { ErrorRateBreaker } from './error-rate-breaker';
import { parseBreakerName, type DescribeAsk, type Guard, type GuardDescription } from './guard';
import { EffectShaper } from './guard-effects';
import type { GuardStateStore } from './guard-state-store';
import { IterationBreaker } from './iteration-breaker';
import { PriceTable, type PriceLookup } from './price-table';
import { ProjectLadders } from './project-ladders';
import { ProviderHealth } from './provider-health';
import { budgetLimitGuard, providerGuard, toolGuard } from './resource-guards';
import { RunBreaker } from './run-breaker';
import { SafetySwitch } from './safety-switch';
import { SessionStates } from './session-guards';
import {
  errorRateGuard,
  iterationGuard,
  runGuard,
  safetyGuard,
  stuckGuard,
  timeGuard,
  type RunGuard,
  type SafetyGuard,
} from './session-part-guards';
import { StuckDetector } from './stuck-detector';
import { TimeBreaker } from './time-breaker';
import { ToolBreakers } from './tool-breakers';

/** The settings the guards read; a slice of the app's `Settings`. */
export interface GuardSettingsView {
  budgets: BudgetSettings;
  guards: GuardSettings;
}

export interface GuardChainOptions {
  clock: Clock;
  store: GuardStateStore;
  /** Read on every call (never while building), so a `settings.set` takes effect at once. */
  settings: () => GuardSettingsView;
  /** The price table; defaults to `@pydantic/genai-prices`. */
  prices?: PriceLookup;
}

/** The guards in the order the chain calls them, and what the chain itself needs of them. */
export interface GuardSet {
  list: readonly Guard[];
  sessions: SessionStates;
  budgets: BudgetGuard;
  prices: PriceTable;
  run: RunGuard;
  safety: SafetyGuard;
  ladders: ProjectLadders;
  effects: EffectShaper;
}

/**
 * Builds every guard. The order is the order of verdicts, and two guards depend on it: the
 * budget reserves only after the tool breaker admitted a probe, and the safety switch comes
 * last so that it sees the budget's verdicts of the same call.
 */
export function createGuards({ clock, store, settings, prices }: GuardChainOptions): GuardSet {
  const g = (): GuardSettings => settings().guards;
  const sessions = new SessionStates(store, () => clock.now());
  const budgets = new BudgetGuard(clock, store, () => settings().budgets);
  const run = runGuard(new RunBreaker(() => g().run, clock), () => g().run, sessions);
  const safety = safetyGuard(
    new SafetySwitch(() => g().safety),
    () => g().safety,
    sessions,
    (ctx) => budgets.remainingPct(ctx),
  );
  return {
    list: [
      run,
      iterationGuard(new IterationBreaker(() => g().iteration), sessions),
      timeGuard(new TimeBreaker(() => g().time), sessions),
      errorRateGuard(new ErrorRateBreaker(() => g().errorRate), sessions),
      stuckGuard(new StuckDetector(() => g().stuck), sessions),
      providerGuard(new ProviderHealth(clock, () => g().providers), store),
      toolGuard(new ToolBreakers(clock, store, () => g().circuit)),
      budgetLimitGuard(budgets, () => settings().budgets, store, sessions),
      safety,
    ],
    sessions,
    budgets,
    prices: new PriceTable(() => g().prices.overrides, prices),
    run,
    safety,
    ladders: new ProjectLadders(new AutomationLadder(() => g().ladder), store, clock),
    effects: new EffectShaper(clock, () => g().eventDedupWindowMs),
  };
}

/**
 * Every guard's share of a view, merged: the breakers view, or with `budgetDays` the spend
 * report. Breaker rows of what sessions share (providers, tools) come first, then the
 * session guards' rows, session by session.
 */
export function describeGuards(
  { list, sessions }: GuardSet,
  now: number,
  budgetDays?: number,
): { breakers: BreakerRow[]; budgets?: GuardDescription['budgets'] } {
  let stored: ReturnType<SessionStates['stored']> | undefined;
  const ask: DescribeAsk =
    budgetDays === undefined
      ? { view: 'breakers', now, stored: (part) => (stored ??= sessions.stored())[part] }
      : { view: 'budgets', now, days: budgetDays };
  const shared: BreakerRow[] = [];
  const perSession: BreakerRow[] = [];
  let budgets: GuardDescription['budgets'];
  for (const guard of list) {
    const d = guard.describe?.(ask) ?? {};
    (guard.part ? perSession : shared).push(...(d.breakers ?? []));
    budgets ??= d.budgets;
  }
  const order = (row: BreakerRow): string => `${parseBreakerName(row.name)?.id}\u0000${row.kind}`;
  perSession.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  return { breakers: [...shared, ...perSession], budgets };
}

/**
 * A human reset of the breaker `kind:id`; `session:ID` resets every guard of the session.
 * False when there is no such breaker.
 */
export function resetGuards(list: readonly Guard[], name: string): boolean {
  const parsed = parseBreakerName(name);
  if (!parsed) return false;
  const targets = list.filter((g) =>
    parsed.kind === 'session' ? g.part !== undefined : g.kind === parsed.kind,
  );
  return targets.map((g) => g.reset?.(parsed.id) ?? false).some(Boolean);
}
