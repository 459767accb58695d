import type { Clock } from '../clock';

/** The wall clock. Timers are unref'd so they never keep a process alive on their own. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, fn) {
    // Node caps timers at 2^31-1 ms; longer waits re-arm.
    const MAX = 2_147_483_647;
    let handle: ReturnType<typeof setTimeout>;
    const arm = (left: number): void => {
      handle = setTimeout(() => (left > MAX ? arm(left - MAX) : fn()), Math.min(left, MAX));
      handle.unref?.();
    };
    arm(Math.max(0, ms));
    return { cancel: () => clearTimeout(handle) };
  },
};
