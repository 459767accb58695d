import type { Verdict } from '../../../shared/domain';
import type { BudgetSettings } from '../../../shared/settings/budgets';
import type { BudgetGuard } from './budget-guard';
import type { CircuitBreaker } from '../../../shared/circuit-breaker';
import { breakerName, type CheckCall, type Guard } from './guard';
import type { GuardStateStore } from './guard-state-store';
import { localDay } from './local-day';
import type { ProviderHealth, ProviderSnapshot } from './provider-health';
import type { SessionStates } from './session-guards';
import type { ToolBreakers } from './tool-breakers';
import { tripped } from './verdict';

/**
 * The guards of what sessions share: model providers, the tools of an agent, and money.
 * Their state is not per session; providers and tools are read from the store on first use
 * (so that building the chain reads neither the store nor the settings).
 */

const PROVIDER = 'provider:';
const DAY_MS = 86_400_000;

/** Provider health by error class, kept under `provider:<name>`. */
export function providerGuard(health: ProviderHealth, store: GuardStateStore): Guard {
  let loaded = false;
  const load = (): void => {
    if (loaded) return;
    loaded = true;
    for (const { key, value } of store.listStates(PROVIDER)) {
      health.restore(key.slice(PROVIDER.length), value as ProviderSnapshot);
    }
  };
  const save = (provider: string): void => {
    const snap = health.snapshot(provider);
    if (snap) store.saveState(`${PROVIDER}${provider}`, snap);
  };
  return {
    kind: 'provider',
    check: ({ params: p }) => {
      if (p.provider === undefined) return [];
      load();
      return health.check(p.provider);
    },
    onOutcome: ({ params: p, status }) => {
      if (p.provider === undefined) return [];
      load();
      // A success on a healthy provider changes nothing worth a write.
      if (p.ok) {
        if (health.recordSuccess(p.provider)) save(p.provider);
        return [];
      }
      const verdicts = health.recordFailure(p.provider, status, p.message);
      save(p.provider);
      return verdicts;
    },
    describe: (ask) => {
      if (ask.view !== 'breakers') return {};
      load();
      return {
        breakers: health.list().map((p) => ({
          name: breakerName('provider', p.provider),
          kind: 'provider' as const,
          state: p.state,
          reason: p.errorClass,
          current: p.failures,
          threshold: p.threshold,
          retryInMs: p.retryInMs,
          totalTrips: p.totalTrips,
          ...(p.lastStatus ? { detail: `last status ${p.lastStatus}` } : {}),
        })),
      };
    },
    reset: (provider) => {
      load();
      if (!health.reset(provider)) return false;
      save(provider);
      return true;
    },
    reload: () => {
      health.clear();
      loaded = false;
    },
    dispose: () => health.dispose(),
  };
}

/** Per-agent, per-tool breakers: open refuses, half-open admits a few probes. */
export function toolGuard(tools: ToolBreakers): Guard {
  const breakerOf = ({ ctx, params: p }: CheckCall): CircuitBreaker | undefined =>
    p.tool === undefined ? undefined : tools.get(ctx.agent, p.tool);
  return {
    kind: 'tool',
    check: (call) => {
      const tool = breakerOf(call);
      return tool?.getState() === 'open' ? [toolVerdict(call.params.tool!, tool)] : [];
    },
    // A half-open tool gives a probe slot only to a call that goes ahead.
    admit: (call) => {
      const tool = breakerOf(call);
      return tool?.getState() === 'half_open' && !tool.tryAcquire()
        ? [toolVerdict(call.params.tool!, tool)]
        : [];
    },
    onOutcome: ({ ctx, params: p }) => {
      if (p.tool === undefined) return [];
      const tool = tools.get(ctx.agent, p.tool);
      const before = tool.getState();
      const clean = before === 'closed' && tool.stats().failures === 0;
      if (p.ok) tool.recordSuccess();
      else tool.recordFailure(p.message ?? p.source);
      if (!(p.ok && clean)) tools.save(ctx.agent, p.tool);
      return before !== 'open' && tool.getState() === 'open' ? [toolVerdict(p.tool, tool)] : [];
    },
    describe: (ask) => {
      if (ask.view !== 'breakers') return {};
      return {
        breakers: tools.list().map(({ name, breaker }) => {
          const s = breaker.stats();
          return {
            name,
            kind: 'tool' as const,
            state: s.state,
            current: s.failures,
            threshold: s.failureThreshold,
            retryInMs: s.retryInMs,
            totalTrips: s.totalTrips,
            ...(s.lastError ? { detail: s.lastError } : {}),
          };
        }),
      };
    },
    reset: (id) => {
      const name = breakerName('tool', id);
      const breaker = tools.find(name);
      if (!breaker) return false;
      breaker.reset();
      tools.saveByName(name);
      return true;
    },
    reload: () => tools.reload(),
    dispose: () => tools.dispose(),
  };
}

function toolVerdict(tool: string, breaker: CircuitBreaker): Verdict {
  const stats = breaker.stats();
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

/**
 * Cost budgets with reservations: a check reserves its estimate once every guard let the
 * call through, usage records the real cost. Its view is the spend report.
 */
export function budgetLimitGuard(
  budgets: BudgetGuard,
  settings: () => BudgetSettings,
  store: GuardStateStore,
  sessions: SessionStates,
): Guard {
  return {
    kind: 'budget',
    check: ({ ctx, params: p }) => budgets.check(ctx, p.phase, p.estimatedCostUsd ?? 0),
    admit: ({ ctx, params: p }) => {
      if (p.estimatedCostUsd) budgets.reserve(ctx, p.phase, p.estimatedCostUsd);
      return [];
    },
    onUsage: ({ ctx, params: p }) =>
      budgets.record(ctx, {
        phase: p.phase,
        model: p.model,
        operation: p.operation,
        inputTokens: p.inputTokens,
        outputTokens: p.outputTokens,
        costUsd: p.costUsd,
        priceSource: p.priceSource,
      }).verdicts,
    describe: (ask) => {
      if (ask.view !== 'budgets') return {};
      const limits = settings();
      const today = budgets.today();
      const sinceDay = localDay(ask.now - (ask.days - 1) * DAY_MS);
      const left = limits.perDayUsd - today.spentUsd - today.reservedUsd;
      return {
        budgets: {
          day: today.day,
          limits: {
            perDayUsd: limits.perDayUsd,
            perSessionUsd: limits.perSessionUsd,
            perOperationUsd: limits.perOperationUsd,
            warnAtPct: limits.warnAtPct,
            perPhaseUsd: limits.perPhaseUsd,
            perAgent: limits.perAgent,
            agents: limits.agents,
          },
          spent: {
            dayUsd: today.spentUsd,
            reservedUsd: today.reservedUsd,
            ...(limits.perDayUsd > 0 ? { remainingDayUsd: Math.max(0, left) } : {}),
          },
          byModel: store.spendBy('model', { day: today.day }),
          byAgent: store.spendBy('agent', { day: today.day }),
          days: store.spendBy('day', { sinceDay }).sort((a, b) => a.key.localeCompare(b.key)),
        },
      };
    },
    // Releases the session's reservations.
    reset: (sessionId) => {
      if (!sessions.known(sessionId)) return false;
      budgets.releaseReservations(sessionId);
      return true;
    },
    reload: () => budgets.forgetTotals(),
  };
}
