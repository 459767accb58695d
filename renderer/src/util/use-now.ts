import { useEffect, useState } from 'react';

/**
 * The current time, refreshed every `everyMs`, so "5 min ago" labels move on. This is a
 * local clock tick for display only; it never calls the daemon.
 */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
