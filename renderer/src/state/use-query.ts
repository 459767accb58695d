import { useEffect, useRef, useState } from 'react';
import type { GatehouseEvent } from '../../../shared/events';
import { errorText } from '../util/format';
import { useLiveCount, useRelevantEventCount } from './use-events';

export interface QueryState<T> {
  data?: T;
  error?: string;
  loading: boolean;
}

/**
 * Runs `load` when its dependencies change, and again when an event that `isRelevant` says
 * touches this data arrives (several events in a burst cause one reload). No timer polls.
 */
export function useLiveQuery<T>(
  load: () => Promise<T>,
  deps: readonly unknown[],
  isRelevant: (event: GatehouseEvent) => boolean,
): QueryState<T> & { reload: () => void } {
  const [state, setState] = useState<QueryState<T>>({ loading: true });
  const events = useRelevantEventCount(isRelevant);
  const [reloads, setReloads] = useState(0);
  const liveCount = useLiveCount();
  const loader = useRef(load);
  useEffect(() => {
    loader.current = load;
  });

  useEffect(() => {
    // The previous data stays on screen while a reload runs; `loading` is only the first load.
    let current = true;
    loader.current().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error: errorText(error), loading: false }),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller lists what `load` reads
  }, [...deps, events, reloads, liveCount]);

  return { ...state, reload: () => setReloads((v) => v + 1) };
}
