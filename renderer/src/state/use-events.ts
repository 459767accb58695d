import { useEffect, useRef, useSyncExternalStore } from 'react';
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
