import type { Engine } from '../engine/engine';
import type { GuardChain } from '../engine/guards/guard-chain';
import { GuardAdmin } from '../engine/guards/guard-admin';
import type { ExtraHandlers } from './admin-service';
import type { BreakerTrip } from '../../shared/protocol/guard-methods';
import type { EngineStore } from '../engine/store-port';

/**
 * Routes the `guards.*` and `ladder.*` admin methods to the guardrails. Mutating calls run
 * in a unit of work so that what they change is audited and published like any change.
 */
export function guardAdminHandlers(engine: Engine, chain: GuardChain): ExtraHandlers {
  const admin = new GuardAdmin(
    chain,
    (sessionId) => engine.deps.store.getSession(sessionId)?.agent,
  );
  const mutate = <R>(
    call: () => { result: R; effects: Parameters<Engine['applyEffects']>[2] },
  ): R =>
    engine.work.run((u) => {
      const { result, effects } = call();
      engine.applyEffects(u, undefined, effects);
      return result;
    });
  return {
    'guards.budgets': (p) => admin.budgets(p),
    'guards.breakers': () => ({
      ...admin.breakers(),
      recentTrips: recentTrips(engine.deps.store, engine.deps.clock.now()),
    }),
    'guards.reset': (p) => mutate(() => admin.reset(p)),
    'guards.recover': (p) => mutate(() => admin.recover(p)),
    'ladder.get': (p) => admin.ladder(p),
    'ladder.set': (p) => mutate(() => admin.setLadderLevel(p)),
  };
}

const RECENT_TRIPS_MS = 24 * 60 * 60_000;
const MAX_RECENT_TRIPS = 20;

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
