import type { BreakerRow, BreakerTrip } from '../../../shared/protocol/guard-methods';
import { parseBreakerName } from './guard';
import type { Clock } from '../../../shared/clock';
import type { AdminHandlers } from '../kernel/admin-handlers';
import type { Unit, UnitOfWork } from '../kernel/unit-of-work';
import type { GuardAdmin } from './guard-chain-admin';
import type { GuardEffects } from './guard-port';
import type { GuardsStore } from './guards-store';

const RECENT_TRIPS_MS = 24 * 60 * 60_000;
const MAX_RECENT_TRIPS = 20;

/** The person's side of the guardrails, as the admin methods drive it. */
export type GuardAdminPort = Pick<
  GuardAdmin,
  'budgets' | 'breakers' | 'reset' | 'recover' | 'ladder' | 'setLadderLevel'
>;

export interface GuardsAdminDeps {
  admin: GuardAdminPort;
  store: GuardsStore;
  work: UnitOfWork;
  clock: Clock;
  /** Audits and (after commit) publishes what a guard admin call changed. */
  applyEffects: (u: Unit, effects: GuardEffects) => void;
}

/**
 * The admin methods of the guardrails: budgets, breakers (with recent trips), resets,
 * recovery from conservative mode, and the automation ladder. Mutating calls run in a unit
 * of work so that what they change is audited and published like any change.
 */
export function guardsAdmin(d: GuardsAdminDeps) {
  const { admin } = d;
  const mutate = <R>(call: () => { result: R; effects: GuardEffects }): R =>
    d.work.run((u) => {
      const { result, effects } = call();
      d.applyEffects(u, effects);
      return result;
    });
  return {
    'guards.budgets': (p) => admin.budgets(p),
    'guards.breakers': () => ({
      breakers: ofLiveSessions(d.store, admin.breakers().breakers),
      recentTrips: recentTrips(d.store, d.clock.now()),
    }),
    'guards.reset': (p) => mutate(() => admin.reset(p)),
    'guards.recover': (p) => mutate(() => admin.recover(p)),
    'ladder.get': (p) => admin.ladder(p),
    'ladder.set': (p) => mutate(() => admin.setLadderLevel(p)),
  } satisfies AdminHandlers<
    | 'guards.budgets'
    | 'guards.breakers'
    | 'guards.reset'
    | 'guards.recover'
    | 'ladder.get'
    | 'ladder.set'
  >;
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
function ofLiveSessions(store: GuardsStore, rows: BreakerRow[]): BreakerRow[] {
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
function recentTrips(store: GuardsStore, now: number): BreakerTrip[] {
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
