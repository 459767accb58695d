import { createContext, useCallback, useContext, useEffect, useState } from 'react';
import type { HubLive } from './hub-live';

/** How often a view reloads while the live stream is down (the fallback). */
export const HUB_POLL_MS = 2_000;
/** Events closer together than this make one reload. */
const COALESCE_MS = 100;

/** The page's live stream, given by the team dashboard; absent, views poll. */
export const HubLiveContext = createContext<HubLive | undefined>(undefined);

/**
 * Loads `load` now, again whenever `key` changes, and whenever the hub's live stream says
 * something changed (or reconnected: the catch-up); only while that stream is down does it
 * poll, every HUB_POLL_MS. The last value stays shown while the next loads. `reload` loads
 * at once (after a decision).
 */
export function useHubPoll<T>(
  load: () => Promise<T>,
  key: string,
): { data: T | undefined; error: string | undefined; reload: () => void } {
  const live = useContext(HubLiveContext);
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [tick, setTick] = useState(0);
  const [liveUp, setLiveUp] = useState(live?.connected ?? false);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    if (!live) return undefined;
    let pending: ReturnType<typeof setTimeout> | undefined;
    const stop = live.subscribe((e) => {
      setLiveUp(live.connected);
      if (e.kind === 'down' || pending) return;
      pending = setTimeout(() => {
        pending = undefined;
        reload();
      }, COALESCE_MS);
    });
    return () => {
      stop();
      if (pending) clearTimeout(pending);
    };
  }, [live, reload]);
  useEffect(() => {
    let alive = true;
    load().then(
      (value) => {
        if (!alive) return;
        setData(value);
        setError(undefined);
      },
      (e: unknown) => alive && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      alive = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` says what `load` reads
  }, [key, tick]);
  useEffect(() => {
    if (liveUp) return undefined;
    const timer = setInterval(reload, HUB_POLL_MS);
    return () => clearInterval(timer);
  }, [liveUp, reload]);
  return { data, error, reload };
}
