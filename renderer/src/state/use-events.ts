import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { GatehouseEvent } from '../../../shared/events';
import { useApi } from '../api-context';
import { connectionStatus, type ConnectionState } from '../transport/connection';

/** Calls `listener` for every engine event while the component is mounted. */
export function useGatehouseEvents(listener: (event: GatehouseEvent) => void): void {
  const api = useApi();
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => api.onEvent((event) => latest.current(event)), [api]);
}

export function useConnectionState(): ConnectionState {
  return useSyncExternalStore(
    (onChange) => connectionStatus.subscribe(onChange),
    () => connectionStatus.current,
  );
}

/**
 * A number that grows each time the event stream comes back after a gap, so views reload
 * what they may have missed while it was down.
 */
export function useLiveCount(): number {
  return useSyncExternalStore(
    (onChange) => connectionStatus.subscribe(onChange),
    () => connectionStatus.liveCount,
  );
}

/**
 * A number that grows when an event `isRelevant` says touches a view's data arrives; a burst
 * of such events (within 150 ms) grows it once, so the view reloads once.
 */
export function useRelevantEventCount(isRelevant: (event: GatehouseEvent) => boolean): number {
  const [version, setVersion] = useState(0);
  const burst = useRef<ReturnType<typeof setTimeout>>(undefined);
  useGatehouseEvents((event) => {
    if (!isRelevant(event) || burst.current) return;
    burst.current = setTimeout(() => {
      burst.current = undefined;
      setVersion((v) => v + 1);
    }, 150);
  });
  useEffect(() => () => clearTimeout(burst.current), []);
  return version;
}
