import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { RequestRecord } from '../../../shared/domain';
import type { GatehouseEvent } from '../../../shared/events';
import { useApi } from '../api-context';
import { queueReducer, type QueueState } from './queue-reducer';
import { useGatehouseEvents, useLiveCount } from './use-events';

/** How many waiting requests each call loads (in the queue's order: what needs you first). */
const QUEUE_PAGE = 200;

/**
 * The live review queue: its first page loaded (and again after the event stream had a gap),
 * then kept current from `request.*` events; `loadMore` reads the next page as the list is
 * scrolled. `applyDecided` applies a decision's result at once, before its event arrives.
 */
export type { QueueState } from './queue-reducer';

export function usePendingQueue(): QueueState & {
  applyDecided: (requests: RequestRecord[]) => void;
  loadMore: () => void;
} {
  const api = useApi();
  const [state, dispatch] = useReducer(queueReducer, {
    loaded: false,
    requests: [],
    unloaded: 0,
  });
  const loading = useRef<string | undefined>(undefined);
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
    api.listPending({ limit: QUEUE_PAGE }).then(
      (page) => {
        if (buffer.current === replay) buffer.current = null;
        if (current) dispatch({ type: 'loaded', page, replay });
      },
      (error: unknown) => {
        if (current) dispatch({ type: 'failed', error: String(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [api, liveCount]);

  const { nextCursor } = state;
  const loadMore = useCallback(() => {
    if (!nextCursor || loading.current === nextCursor) return;
    loading.current = nextCursor;
    api.listPending({ limit: QUEUE_PAGE, cursor: nextCursor }).then(
      (page) => dispatch({ type: 'more', page }),
      // The next scroll asks again.
      () => (loading.current = undefined),
    );
  }, [api, nextCursor]);

  return {
    ...state,
    applyDecided: (requests) => dispatch({ type: 'decided', requests }),
    loadMore,
  };
}
