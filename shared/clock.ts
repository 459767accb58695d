/** A timer handle returned by a {@link Clock}. */
export interface TimerHandle {
  cancel(): void;
}

/**
 * Time as the engine sees it. Injected so that timeouts, windows, quiet hours and midnight
 * resets are tested by advancing a fake clock instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` once after `ms` milliseconds. */
  setTimer(ms: number, fn: () => void): TimerHandle;
}

export const iso = (ms: number): string => new Date(ms).toISOString();
