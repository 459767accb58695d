import type { UnitOfWork } from './unit-of-work';

/** Back-off before a timed state change is tried again: 1 s, 2 s, 4 s … at most a minute. */
export function retryDelayMs(attempt: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.min(attempt, 16));
}

const nothing = (): void => undefined;

/**
 * Runs a state change that a timer fell due for (a wait timing out, a session's grace
 * period ending). Nobody is there to retry it when its write fails — the unit throws, or the
 * commit of its batch fails later (a full disk) — so `onFail` is told either way, and the
 * caller arms the timer again: the waiting agent still gets its answer once the disk has room.
 */
export function runTimedChange(
  work: UnitOfWork,
  change: () => void,
  onFail: (error: unknown) => void,
): void {
  try {
    change();
  } catch (error) {
    onFail(error);
    return;
  }
  work.whenDurable(nothing, onFail);
}
