import { URGENCY_ORDER, type RequestRecord, type Urgency } from './domain';

/**
 * The order of the review queue on every surface (dashboard, tray, `gatehouse list` and
 * `review`, the phone digest): what needs the person first. An agent blocked on its answer
 * comes before one that filed and went on; within each, `high` before `normal` before `low`;
 * within an urgency, a connected agent before a gone one (no connection of its session is
 * open: an answer reaches nobody now); then the oldest first, as a queue. A gone agent is
 * never blocked: no call of it waits. The store pages `pending.list` in this same order
 * (main/store/requests-repository.ts builds its SQL from {@link attentionRank}).
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

/** A request whose agent waits on it: still pending, filed with a wait (it has a deadline). */
export const agentBlocked = (r: Pick<RequestRecord, 'status' | 'timeoutAt'>): boolean =>
  r.status === 'pending' && r.timeoutAt !== undefined;

/**
 * Higher needs the person sooner: blocked (and connected) adds a whole band above every
 * urgency; each urgency has two places, connected above gone. A sum of three terms, so the
 * store can build it in SQL (main/store/requests-repository.ts).
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

export const requestAttention = (r: RequestRecord): AttentionFacts => ({
  blocked: agentBlocked(r),
  urgency: r.urgency,
  connected: r.agentConnected !== false,
  at: r.createdAt,
});

/** {@link byAttention} for requests, ties broken by id so the order is total. */
export const byRequestAttention = (a: RequestRecord, b: RequestRecord): number =>
  byAttention(requestAttention(a), requestAttention(b)) || a.requestId.localeCompare(b.requestId);
