import { useEffect, useReducer, useRef } from 'react';
import type { RequestRecord } from '../../../shared/domain';
import type { GatehouseEvent } from '../../../shared/events';
import { useApi } from '../api-context';
import { queueReducer, type QueueState } from './queue-reducer';
import { useGatehouseEvents, useLiveCount } from './use-events';

/**
 * The live review queue: loaded once (and again after the event stream had a gap), then kept
 * current from `request.*` events. `applyDecided` applies a decision's result at once, before
 * its event arrives.
 */
export { isQueued, type QueueState } from './queue-reducer';

export function usePendingQueue(): QueueState & {
  applyDecided: (requests: RequestRecord[]) => void;
} {
  const api = useApi();
  const [state, dispatch] = useReducer(queueReducer, { loaded: false, requests: [] });
  const liveCount = useLiveCount();
  const buffer = useRef<GatehouseEvent[] | null>(null);

  useGatehouseEvents((event) => {
    buffer.current?.push(event);
    dispatch({ type: 'event', event });
  });

  useEffect(() => {
    let current = true;
    const replay: GatehouseEvent[] = [];
    buffer.current = replay;
    api.listPending().then(
      ({ requests }) => {
        if (buffer.current === replay) buffer.current = null;
        if (current) dispatch({ type: 'loaded', requests, replay });
      },
      (error: unknown) => {
        if (current) dispatch({ type: 'failed', error: String(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [api, liveCount]);

  return { ...state, applyDecided: (requests) => dispatch({ type: 'decided', requests }) };
}
