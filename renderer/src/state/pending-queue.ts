import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { RequestRecord } from '../../../shared/domain';
import type { GatehouseEvent } from '../../../shared/events';
import { useApi } from '../api-context';
import { queueReducer, type QueueState } from './queue-reducer';
import { useGatehouseEvents, useLiveCount } from './use-events';
import { useLiveQuery } from './use-query';
import { useNow } from '../util/use-now';

/** How often the inferred urgencies are taken again (a blocked agent's wait grows). */
const INFER_EVERY_MS = 30_000;

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

  // The queue ranks by the urgency Gatehouse infers unless the person turned that off.
  const settings = useLiveQuery(
    () => api.getSettings(),
    [api],
    (e) => e.type === 'settings.changed',
  );
  const infer =
    (settings.data?.settings.requests as Record<string, unknown> | undefined)?.inferUrgency !==
    false;
  const now = useNow(INFER_EVERY_MS);
  useEffect(() => {
    dispatch({ type: 'infer', at: infer ? now : undefined });
  }, [infer, now]);

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
