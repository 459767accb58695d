// Quick mode (BENCH_QUICK=1): every measurement shrinks to a fraction of a second, so the test
// suite can run every benchmark as a child process (test/integration/bench/bench-quick.test.ts) and a
// change that breaks one fails CI instead of being found months later. The figures are still
// printed, and the targets beside them, but a missed target does not fail a quick run: figures
// that small on a shared CI machine are noise. Errors (a bench that cannot run) still fail it.

export const QUICK = process.env.BENCH_QUICK === '1';

/** `full` in a full run, `quick` in quick mode. */
export function sized(full, quick) {
  return QUICK ? quick : full;
}

/**
 * Sets the exit code from the targets: 1 when one was missed in a full run. In quick mode it
 * only says that the targets were not enforced.
 */
export function settleTargets(missed) {
  if (QUICK) {
    console.log(`quick mode: targets ${missed ? 'missed' : 'met'} but not enforced`);
    return;
  }
  if (missed) process.exitCode = 1;
}
