import type { ChildProcess } from 'node:child_process';

/**
 * Stops a child process: SIGTERM, then SIGKILL if it has not exited within `graceMs`, and
 * resolves once it has exited. A server that outlives its test (`opencode serve` with a
 * connection still open took no notice of SIGTERM in CI) holds its memory and port for good.
 */
export const stopChild = (child: ChildProcess | undefined, graceMs = 3_000): Promise<void> =>
  new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
