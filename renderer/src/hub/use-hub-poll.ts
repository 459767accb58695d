import { useCallback, useEffect, useState } from 'react';

/** How often the team dashboard reloads what it shows (the hub has no event stream yet). */
export const HUB_POLL_MS = 2_000;

/**
 * Loads `load` now, again whenever `key` changes, and every HUB_POLL_MS while mounted; the
 * last value stays shown while the next loads. `reload` loads at once (after a decision).
 */
export function useHubPoll<T>(
  load: () => Promise<T>,
  key: string,
): { data: T | undefined; error: string | undefined; reload: () => void } {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    let live = true;
    const run = () =>
      load().then(
        (value) => {
          if (!live) return;
          setData(value);
          setError(undefined);
        },
        (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
      );
    void run();
    const timer = setInterval(() => void run(), HUB_POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` says what `load` reads
  }, [key, tick]);
  return { data, error, reload };
}
