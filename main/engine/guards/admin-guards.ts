import type { BreakerRow, BreakerTrip } from '../../../shared/protocol/guard-methods';
import { parseBreakerName } from './guard';
import type {
  AdminParsedParams as In,
  AdminResult as Out,
} from '../../../shared/protocol/method-map';
import type { EngineCore } from '../engine-core';
import type { GuardEffects } from './guard-port';
import type { EngineStore } from '../store-port';

const RECENT_TRIPS_MS = 24 * 60 * 60_000;
const MAX_RECENT_TRIPS = 20;

/**
 * The person's side of the guardrails: budgets, breakers (with recent trips), resets,
 * recovery from conservative mode, and the automation ladder. Mutating calls run in a unit
 * of work so that what they change is audited and published like any change.
 */
export function adminGuards(x: EngineCore) {
  const admin = x.deps.guardAdmin;
  const mutate = <R>(call: () => { result: R; effects: GuardEffects }): R =>
    x.work.run((u) => {
      const { result, effects } = call();
      x.applyEffects(u, undefined, effects);
      return result;
    });
  return {
    guards: {
      budgets: (p: In<'guards.budgets'>): Out<'guards.budgets'> => admin.budgets(p),
      breakers: (): Out<'guards.breakers'> => ({
        breakers: ofLiveSessions(x.deps.store, admin.breakers().breakers),
        recentTrips: recentTrips(x.deps.store, x.deps.clock.now()),
      }),
      reset: (p: In<'guards.reset'>): Out<'guards.reset'> => mutate(() => admin.reset(p)),
      recover: (p: In<'guards.recover'>): Out<'guards.recover'> => mutate(() => admin.recover(p)),
    },
    ladder: {
      get: (p: In<'ladder.get'>): Out<'ladder.get'> => admin.ladder(p),
      set: (p: In<'ladder.set'>): Out<'ladder.set'> => mutate(() => admin.setLadderLevel(p)),
    },
  };
}

/** The breakers that guard one session's parts; named `KIND:SESSION`. */
const SESSION_PART_KINDS: ReadonlySet<BreakerRow['kind']> = new Set([
  'run',
  'stuck',
  'safety_switch',
  'error_rate',
]);

/**
 * The breakers without those of sessions that have ended. A session's guard state is kept
 * after its end (the stored rows outlive it), but a safety switch "open" for a session no
 * agent works in any more guards nothing and told the person something false; its trip
 * stays in the recent trips.
 */
function ofLiveSessions(store: EngineStore, rows: BreakerRow[]): BreakerRow[] {
  return rows.filter((row) => {
    if (!SESSION_PART_KINDS.has(row.kind)) return true;
    const sessionId = parseBreakerName(row.name)?.id;
    const session = sessionId === undefined ? undefined : store.getSession(sessionId);
    return session === undefined || session.status === 'active';
  });
}

/**
 * The latest trips from the audit trail. A breaker that tripped and closed again (a
 * stagnation stop, a provider that recovered) has no row in `breakers`, but the person should
 * still see that it happened and why.
 */
function recentTrips(store: EngineStore, now: number): BreakerTrip[] {
  const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const number = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
  return store
    .queryAudit({ type: 'guard.tripped', sinceMs: now - RECENT_TRIPS_MS, limit: MAX_RECENT_TRIPS })
    .map((e) => {
      const trip: BreakerTrip = { at: e.at, breaker: text(e.data.breaker) ?? 'unknown' };
      const reason = text(e.data.reason);
      if (reason) trip.reason = reason;
      if (e.agent) trip.agent = e.agent;
      if (e.sessionId) trip.sessionId = e.sessionId;
      const current = number(e.data.current);
      if (current !== undefined) trip.current = current;
      const threshold = number(e.data.threshold);
      if (threshold !== undefined) trip.threshold = threshold;
      const suggestion = text(e.data.suggestion);
      if (suggestion) trip.suggestion = suggestion;
      return trip;
    });
}
