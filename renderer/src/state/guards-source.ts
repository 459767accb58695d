import type { GatehouseApi } from '../../../shared/gatehouse-api';
import type { BreakerRow, BreakerTrip } from '../../../shared/protocol/guard-methods';
import type { AdminResult } from '../../../shared/protocol/method-map';

/**
 * The Budgets view shows what the daemon says (`guards.breakers`, `guards.budgets`): an error
 * from either call is shown to the person, never covered by a reconstruction of our own.
 */

export interface SpendOverview {
  byDay: { day: string; usd: number }[];
  byModel: { model: string; usd: number }[];
  /** Spent today. */
  todayUsd: number;
}

/** The local calendar day of an ISO time, as YYYY-MM-DD. */
export function localDay(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * The daemon's spend per day and per model, laid over the last `days` local days (oldest
 * first) so the chart has a bar, possibly zero, for each.
 */
export function spendOverview(
  budgets: AdminResult<'guards.budgets'>,
  now: number,
  days = 14,
): SpendOverview {
  const totals = new Map<string, number>();
  for (let i = days - 1; i >= 0; i--)
    totals.set(localDay(new Date(now - i * 86_400_000).toISOString()), 0);
  for (const d of budgets.days) if (totals.has(d.key)) totals.set(d.key, d.costUsd);
  return {
    byDay: [...totals].map(([day, usd]) => ({ day, usd })),
    byModel: budgets.byModel
      .map((m) => ({ model: m.key, usd: m.costUsd }))
      .sort((a, b) => b.usd - a.usd),
    todayUsd: budgets.spent.dayUsd,
  };
}

/** Every breaker and the trips of the last day, from `guards.breakers`. */
export async function loadBreakers(
  api: GatehouseApi,
): Promise<{ rows: BreakerRow[]; recentTrips: BreakerTrip[] }> {
  const { breakers, recentTrips } = await api.listBreakers();
  return { rows: breakers, recentTrips };
}

/** Spend per day and per model, from `guards.budgets`. */
export async function loadSpend(api: GatehouseApi, now: number, days = 14): Promise<SpendOverview> {
  return spendOverview(await api.getGuardBudgets({ days }), now, days);
}
