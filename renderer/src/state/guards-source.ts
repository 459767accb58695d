import type { AuditEvent, SessionRecord, Verdict } from '../../../shared/domain';
import type { GatehouseApi } from '../../../shared/gatehouse-api';
import type { BreakerTrip } from '../../../shared/protocol/guard-methods';

/** One breaker as the Budgets view shows it. */
export interface BreakerRow {
  name: string;
  kind?: string;
  state: Verdict['state'];
  reason?: string;
  current?: number;
  threshold?: number;
  detail?: string;
  retryInMs?: number;
  at?: string;
}

export interface SpendOverview {
  byDay: { day: string; usd: number }[];
  byModel: { model: string; usd: number }[];
  /** Spent today, and the daily budget when the guards report it. */
  todayUsd: number;
  source: 'guards' | 'sessions';
}

/** The local calendar day of an ISO time, as YYYY-MM-DD. */
export function localDay(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The last `days` local days, oldest first, each with zero spend. */
function emptyDays(now: number, days: number): Map<string, number> {
  const totals = new Map<string, number>();
  for (let i = days - 1; i >= 0; i--)
    totals.set(localDay(new Date(now - i * 86_400_000).toISOString()), 0);
  return totals;
}

/** Spend per day over the last `days` days (zero days included), from session costs. */
export function spendByDay(
  sessions: SessionRecord[],
  now: number,
  days = 14,
): { day: string; usd: number }[] {
  const totals = emptyDays(now, days);
  for (const s of sessions) {
    const day = localDay(s.startedAt);
    if (totals.has(day)) totals.set(day, totals.get(day)! + s.costUsd);
  }
  return [...totals].map(([day, usd]) => ({ day, usd }));
}

/** The latest state of each breaker named in trip / reset audit entries. */
export function breakersFromAudit(events: AuditEvent[]): BreakerRow[] {
  const rows = new Map<string, BreakerRow>();
  for (const e of [...events].sort((a, b) => a.seq - b.seq)) {
    const nested = e.data.verdict;
    const verdict =
      nested && typeof nested === 'object' ? (nested as Record<string, unknown>) : e.data;
    const name = typeof verdict.breaker === 'string' ? verdict.breaker : undefined;
    if (!name) continue;
    const reset = e.type.endsWith('reset') || e.type.endsWith('closed');
    rows.set(name, {
      name,
      state: reset ? 'closed' : ((verdict.state as Verdict['state'] | undefined) ?? 'open'),
      reason: typeof verdict.reason === 'string' ? verdict.reason : undefined,
      current: typeof verdict.current === 'number' ? verdict.current : undefined,
      threshold: typeof verdict.threshold === 'number' ? verdict.threshold : undefined,
      at: e.at,
    });
  }
  return [...rows.values()];
}

/**
 * Breakers from `guards.breakers`; when this build has no guard methods (the call errors),
 * the latest trip and reset entries of the audit trail.
 */
export async function loadBreakers(
  api: GatehouseApi,
): Promise<{ rows: BreakerRow[]; recentTrips: BreakerTrip[]; source: 'guards' | 'audit' }> {
  try {
    const { breakers, recentTrips } = await api.listBreakers();
    return { rows: breakers, recentTrips, source: 'guards' };
  } catch {
    const { events } = await api.queryAudit({ limit: 2000 });
    const trips = events.filter((e) => e.type.startsWith('guard') || e.type.startsWith('breaker'));
    return { rows: breakersFromAudit(trips), recentTrips: [], source: 'audit' };
  }
}

/** Spend per day and per model from `guards.budgets`, else per day from session costs. */
export async function loadSpend(api: GatehouseApi, now: number, days = 14): Promise<SpendOverview> {
  try {
    const budgets = await api.getGuardBudgets({ days });
    const totals = emptyDays(now, days);
    for (const d of budgets.days) if (totals.has(d.key)) totals.set(d.key, d.costUsd);
    return {
      byDay: [...totals].map(([day, usd]) => ({ day, usd })),
      byModel: budgets.byModel
        .map((m) => ({ model: m.key, usd: m.costUsd }))
        .sort((a, b) => b.usd - a.usd),
      todayUsd: budgets.spent.dayUsd,
      source: 'guards',
    };
  } catch {
    const { sessions } = await api.listSessions({ status: 'all', limit: 5000 });
    const byDay = spendByDay(sessions, now, days);
    const today = localDay(new Date(now).toISOString());
    return {
      byDay,
      byModel: [],
      todayUsd: byDay.find((d) => d.day === today)?.usd ?? 0,
      source: 'sessions',
    };
  }
}
