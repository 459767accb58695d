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

/**
 * Runs `fn` every `ms` milliseconds on `clock`, each wait starting when the run before it ends,
 * until the handle is cancelled.
 */
export function repeatEvery(clock: Clock, ms: number, fn: () => void): TimerHandle {
  let live = true;
  let timer: TimerHandle;
  const next = (): void => {
    timer = clock.setTimer(ms, () => {
      fn();
      if (live) next();
    });
  };
  next();
  return {
    cancel: () => {
      live = false;
      timer.cancel();
    },
  };
}

let lastIsoMs = Number.NaN;
let lastIso = '';
/**
 * The ISO 8601 text of a time. The last one is kept: the engine stamps every write of a batch
 * with the same millisecond, and formatting a Date costs about a microsecond each time.
 */
export const iso = (ms: number): string => {
  if (ms !== lastIsoMs) {
    lastIso = new Date(ms).toISOString();
    lastIsoMs = ms;
  }
  return lastIso;
};
