import { useCallback, useEffect, useRef, useState } from 'react';
import type { GatehouseEvent } from '../../../shared/events';
import { errorText } from '../util/format';
import { useLiveCount, useRelevantEventCount } from './use-events';

/** One page of a list the daemon pages (`limit` + `cursor` in, `nextCursor` + `total` out). */
export interface Page<T> {
  items: T[];
  nextCursor?: string | undefined;
  total?: number | undefined;
}

/** Where a page starts: the first page has no cursor. */
export interface PageRequest {
  limit: number;
  cursor?: string;
}

export interface PagedState<T> {
  items: T[];
  /** How many items match in all, when the daemon counts them. */
  total?: number | undefined;
  /** More pages exist beyond `items`. */
  hasMore: boolean;
  error?: string | undefined;
  /** Only the first load: later reloads keep the previous items on screen. */
  loading: boolean;
}

/** The most a live refresh reloads at once (the daemon's `limit` cap). */
const MAX_REFRESH = 5000;

/**
 * A list that grows with history, read a page at a time: the first page loads when the
 * dependencies change, `loadMore` appends the next one (called as the list scrolls to its
 * end), and an event `isRelevant` says touches the list reloads what is loaded so far in one
 * call (bursts fold into one reload; bounded by {@link MAX_REFRESH}), so the view stays live
 * without jumping back to the first page. No timer polls.
 */
export function usePagedQuery<T>(
  load: (page: PageRequest) => Promise<Page<T>>,
  deps: readonly unknown[],
  isRelevant: (event: GatehouseEvent) => boolean,
  pageSize: number,
): PagedState<T> & { loadMore: () => void } {
  const [state, setState] = useState<PagedState<T> & { nextCursor?: string }>({
    items: [],
    hasMore: false,
    loading: true,
  });
  const events = useRelevantEventCount(isRelevant);
  const liveCount = useLiveCount();
  const loader = useRef(load);
  useEffect(() => {
    loader.current = load;
  });
  /** How many items the next refresh reloads: one page after a filter change, else all shown. */
  const shown = useRef(pageSize);
  /** Bumped by every (re)load, so an older answer or an appended page never lands late. */
  const generation = useRef(0);
  const appending = useRef<string | undefined>(undefined);

  // A new filter starts again from one page.
  useEffect(() => {
    shown.current = pageSize;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller lists what `load` reads
  }, [...deps, pageSize]);

  useEffect(() => {
    const mine = ++generation.current;
    appending.current = undefined;
    const limit = Math.min(MAX_REFRESH, Math.max(pageSize, shown.current));
    loader.current({ limit }).then(
      (page) => {
        if (mine !== generation.current) return;
        setState({
          items: page.items,
          total: page.total,
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
          hasMore: page.nextCursor !== undefined,
          loading: false,
        });
      },
      (error: unknown) => {
        if (mine !== generation.current) return;
        setState((s) => ({ ...s, error: errorText(error), loading: false }));
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller lists what `load` reads
  }, [...deps, pageSize, events, liveCount]);

  const { nextCursor } = state;
  const loadMore = useCallback(() => {
    if (!nextCursor || appending.current === nextCursor) return;
    appending.current = nextCursor;
    const mine = generation.current;
    loader.current({ limit: pageSize, cursor: nextCursor }).then(
      (page) => {
        if (mine !== generation.current) return;
        setState((s) => {
          const items = [...s.items, ...page.items];
          shown.current = items.length;
          return {
            items,
            ...(page.total !== undefined
              ? { total: page.total }
              : s.total !== undefined
                ? { total: s.total }
                : {}),
            ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
            hasMore: page.nextCursor !== undefined,
            loading: false,
          };
        });
      },
      // The next scroll asks again.
      () => (appending.current = undefined),
    );
    // `items`: a reload that lands while a page is being appended drops that page; the list's
    // end is still in view and its count unchanged, so only a new `loadMore` asks again.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
  }, [nextCursor, pageSize, state.items]);

  const { items, total, hasMore, error, loading } = state;
  return {
    items,
    total,
    hasMore,
    error,
    loading,
    loadMore,
  };
}
