import { isWaitingForYou, type RequestRecord } from '../../../shared/domain';
import type { GatehouseEvent } from '../../../shared/events';

/** Statuses that keep a request in the review queue (a timed-out one still awaits a human). */
export const isQueued = (r: RequestRecord): boolean => isWaitingForYou(r.status);

export interface QueueState {
  loaded: boolean;
  error?: string;
  requests: RequestRecord[];
}

export type QueueAction =
  | { type: 'event'; event: GatehouseEvent }
  | { type: 'loaded'; requests: RequestRecord[]; replay: GatehouseEvent[] }
  | { type: 'failed'; error: string }
  | { type: 'decided'; requests: RequestRecord[] };

/** Applies a changed request: kept (and updated) while queued, dropped once decided. */
function upsert(list: RequestRecord[], request: RequestRecord): RequestRecord[] {
  const rest = list.filter((r) => r.requestId !== request.requestId);
  return isQueued(request) ? [...rest, request] : rest;
}

function applyEvent(list: RequestRecord[], event: GatehouseEvent): RequestRecord[] {
  switch (event.type) {
    case 'request.created':
    case 'request.decided':
    case 'request.timed_out':
    case 'request.cancelled':
      return upsert(list, event.request);
    default:
      return list;
  }
}

const byCreated = (a: RequestRecord, b: RequestRecord) => a.createdAt.localeCompare(b.createdAt);

export function queueReducer(state: QueueState, action: QueueAction): QueueState {
  switch (action.type) {
    case 'event': {
      const requests = applyEvent(state.requests, action.event);
      return requests === state.requests ? state : { ...state, requests: requests.sort(byCreated) };
    }
    case 'loaded': {
      // Events that arrived while the list was loading may be newer than it: apply them again.
      const requests = action.replay.reduce(applyEvent, action.requests.filter(isQueued));
      return { loaded: true, requests: requests.sort(byCreated) };
    }
    case 'failed':
      return { ...state, loaded: true, error: action.error };
    case 'decided':
      return { ...state, requests: action.requests.reduce(upsert, state.requests).sort(byCreated) };
  }
}
