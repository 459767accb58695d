import { agentBlocked } from './agent-blocked';
import { URGENCY_ORDER, type RequestRecord, type Urgency } from './domain';
import { inferUrgency, LONG_WAIT_MS } from './request-picture/inferred-urgency';

export { agentBlocked };

/**
 * The order of the review queue on every surface (dashboard, tray, `gatehouse list` and
 * `review`, the phone digest): what needs the person first. An agent blocked on its answer
 * comes before one that filed and went on; within each, `high` before `normal` before `low`;
 * the urgency is the one Gatehouse infers when the agent gave none (a production target, a
 * force push, an agent blocked for long: shared/request-picture/inferred-urgency.ts) unless the
 * person turned inference off (`requests.inferUrgency`); within an urgency, a connected agent before a gone one (no connection of its session is
 * open: an answer reaches nobody now); then the oldest first, as a queue. A gone agent is
 * never blocked: no call of it waits. The store pages `pending.list` in this same order
 * (main/store/attention-pages.ts, its ranks from {@link attentionRank}).
 */
export interface AttentionFacts {
  /** An agent call is blocked right now waiting for this decision. */
  blocked: boolean;
  urgency: Urgency;
  /** The asking agent is still connected; false once it is gone. Unknown counts as connected. */
  connected?: boolean;
  /** ISO-8601 time it was filed (or happened): older first within a rank. */
  at: string;
}

/**
 * Higher needs the person sooner: blocked (and connected) adds a whole band above every
 * urgency; each urgency has two places, connected above gone. A sum of three terms, so the
 * store can build it in SQL (main/store/attention-pages.ts).
 */
export const attentionRank = (blocked: boolean, urgency: Urgency, connected = true): number =>
  (blocked && connected ? 2 * URGENCY_ORDER.length : 0) +
  2 * URGENCY_ORDER.indexOf(urgency) +
  (connected ? 1 : 0);

const rankOf = (f: AttentionFacts): number => attentionRank(f.blocked, f.urgency, f.connected);

/** Sorts by what needs the person first; ties keep age order. */
export function byAttention(a: AttentionFacts, b: AttentionFacts): number {
  return rankOf(b) - rankOf(a) || a.at.localeCompare(b.at);
}

/**
 * The urgency a request is ranked by: the one inferred at `inferAt` (ms since the epoch) when
 * given and one applies, else the agent's own. Undefined `inferAt`: inference is off.
 */
export const rankedUrgency = (r: Parameters<typeof inferUrgency>[0], inferAt?: number): Urgency =>
  inferAt === undefined ? r.urgency : (inferUrgency(r, inferAt)?.urgency ?? r.urgency);

/**
 * How a request's ranked urgency moves with time, for a store whose queries cannot call
 * {@link rankedUrgency} (the hub's PostgreSQL keeps both values in columns): the urgency
 * from its filing on, and from `laterAt` on. The inference depends on the time only through
 * how long a blocked agent has waited ({@link LONG_WAIT_MS}), so two values cover every time;
 * both come from {@link inferUrgency} itself.
 */
export function urgencyTimeline(r: Parameters<typeof inferUrgency>[0]): {
  filed: Urgency;
  later: Urgency;
  laterAt: number;
} {
  const filedAt = Date.parse(r.createdAt);
  const laterAt = (Number.isFinite(filedAt) ? filedAt : 0) + LONG_WAIT_MS;
  return {
    filed: rankedUrgency(r, laterAt - LONG_WAIT_MS),
    later: rankedUrgency(r, laterAt),
    laterAt,
  };
}

export const requestAttention = (r: RequestRecord, inferAt?: number): AttentionFacts => ({
  blocked: agentBlocked(r),
  urgency: rankedUrgency(r, inferAt),
  connected: r.agentConnected !== false,
  at: r.createdAt,
});

/** {@link byAttention} for requests by the agents' own urgencies, ties broken by id so the order is total. */
export const byRequestAttention = (a: RequestRecord, b: RequestRecord): number =>
  byAttention(requestAttention(a), requestAttention(b)) || a.requestId.localeCompare(b.requestId);

/**
 * {@link byAttention} for requests with urgencies inferred at `inferAt` (undefined: inference
 * off, as {@link byRequestAttention}): the order of the local review queue (the store pages
 * `pending.list` the same way).
 */
export const byRequestAttentionAt =
  (inferAt: number | undefined) =>
  (a: RequestRecord, b: RequestRecord): number =>
    byAttention(requestAttention(a, inferAt), requestAttention(b, inferAt)) ||
    a.requestId.localeCompare(b.requestId);
