import { isWaitingForYou, type RequestRecord } from '../../../shared/domain';
import type { GatehouseEvent } from '../../../shared/events';
import { byRequestAttentionAt } from '../../../shared/queue-order';

/** Statuses that keep a request in the review queue (a timed-out one still awaits a human). */
export const isQueued = (r: RequestRecord): boolean => isWaitingForYou(r.status);

export interface QueueState {
  loaded: boolean;
  error?: string;
  requests: RequestRecord[];
  /** Waiting requests on pages not loaded yet (the queue loads a page at a time). */
  unloaded: number;
  /** Where the next page starts; absent once every page is loaded. */
  nextCursor?: string;
  /**
   * When the urgencies Gatehouse infers were last taken (ms since the epoch; they change as
   * an agent waits); absent while inference is off (`requests.inferUrgency`).
   */
  inferAt?: number;
}

/** A page of the queue as `pending.list` answers it. */
export interface QueuePage {
  requests: RequestRecord[];
  total?: number | undefined;
  nextCursor?: string | undefined;
}

export type QueueAction =
  | { type: 'event'; event: GatehouseEvent }
  | { type: 'loaded'; page: QueuePage; replay: GatehouseEvent[] }
  | { type: 'more'; page: QueuePage }
  | { type: 'failed'; error: string }
  | { type: 'decided'; requests: RequestRecord[] }
  /** The time to infer urgencies at, or undefined to rank by the agents' own. */
  | { type: 'infer'; at: number | undefined };

/**
 * Applies a changed request: kept (and updated) while queued, dropped once decided. An event's
 * copy carries no live facts of its agent (agentState, agentConnected): the ones the queue
 * loaded stay, so the badge, the filter and the order do not forget a gone agent.
 */
function upsert(list: RequestRecord[], request: RequestRecord): RequestRecord[] {
  const before = list.find((r) => r.requestId === request.requestId);
  // Always a new list: the reducer tells "a request of a page not loaded yet left" by it.
  const rest = list.filter((r) => r.requestId !== request.requestId);
  if (!isQueued(request)) return rest;
  const live = {
    agentState: before?.agentState,
    agentConnected: before?.agentConnected,
  };
  return [...rest, { ...live, ...request }];
}

function applyEvent(list: RequestRecord[], event: GatehouseEvent): RequestRecord[] {
  switch (event.type) {
    case 'request.created':
    case 'request.decided':
    case 'request.timed_out':
    case 'request.cancelled':
      return upsert(list, event.request);
    case 'session.connection': {
      // The asking agent's last connection closed (gone), or it came back.
      const { sessionId, connected } = event;
      if (!list.some((r) => r.sessionId === sessionId && r.agentConnected !== connected))
        return list;
      return list.map((r) => (r.sessionId === sessionId ? { ...r, agentConnected: connected } : r));
    }
    case 'session.ended': {
      // A session that ended with no connection open leaves its requests to a gone agent.
      const { sessionId, connections } = event.session;
      if (connections > 0 || !list.some((r) => r.sessionId === sessionId)) return list;
      return list.map((r) => (r.sessionId === sessionId ? { ...r, agentConnected: false } : r));
    }
    default:
      return list;
  }
}

export function queueReducer(state: QueueState, action: QueueAction): QueueState {
  /** The queue's order on every surface: what needs the person first (shared/queue-order.ts). */
  const byQueueOrder = byRequestAttentionAt(action.type === 'infer' ? action.at : state.inferAt);
  switch (action.type) {
    case 'infer': {
      const { inferAt: _was, ...rest } = state;
      return {
        ...rest,
        requests: [...state.requests].sort(byQueueOrder),
        ...(action.at !== undefined ? { inferAt: action.at } : {}),
      };
    }
    case 'event': {
      const requests = applyEvent(state.requests, action.event);
      if (requests === state.requests) return state;
      // A request of a page not loaded yet left the queue: one fewer to load.
      const left =
        requests.length === state.requests.length &&
        'request' in action.event &&
        !isQueued(action.event.request) &&
        state.unloaded > 0;
      return {
        ...state,
        requests: requests.sort(byQueueOrder),
        unloaded: state.unloaded - (left ? 1 : 0),
      };
    }
    case 'loaded': {
      // Events that arrived while the list was loading may be newer than it: apply them again.
      const { page } = action;
      const requests = action.replay.reduce(applyEvent, page.requests.filter(isQueued));
      return {
        loaded: true,
        ...(state.inferAt !== undefined ? { inferAt: state.inferAt } : {}),
        requests: requests.sort(byQueueOrder),
        unloaded: Math.max(0, (page.total ?? page.requests.length) - page.requests.length),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      };
    }
    case 'more': {
      const known = new Set(state.requests.map((r) => r.requestId));
      const added = action.page.requests.filter((r) => isQueued(r) && !known.has(r.requestId));
      const { nextCursor: _done, ...rest } = state;
      return {
        ...rest,
        requests: [...state.requests, ...added].sort(byQueueOrder),
        unloaded: action.page.nextCursor
          ? Math.max(0, state.unloaded - action.page.requests.length)
          : 0,
        ...(action.page.nextCursor ? { nextCursor: action.page.nextCursor } : {}),
      };
    }
    case 'failed':
      return { ...state, loaded: true, error: action.error };
    case 'decided':
      return {
        ...state,
        requests: action.requests.reduce(upsert, state.requests).sort(byQueueOrder),
      };
  }
}
