import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Starts `node <argv>` (a daemon, a hub) and waits until its output holds `readyLine`. Every
 * chunk it prints, on stdout or stderr, before and after that, goes to `onOutput` with all
 * the output so far (for the caller to keep and read addresses from). Rejects with that
 * output when the process exits first or is not ready within `timeoutMs`.
 */
export function launchUntilReady(o: {
  argv: string[];
  env: NodeJS.ProcessEnv;
  /** What it is, for the errors. */
  name: string;
  readyLine: string;
  timeoutMs: number;
  onOutput: (output: string) => void;
}): { proc: ChildProcess; ready: Promise<void> } {
  const proc = spawn(process.execPath, o.argv, {
    env: o.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${o.name} did not start:\n${output}`)),
      o.timeoutMs,
    );
    const onData = (d: Buffer) => {
      output += d.toString();
      o.onOutput(output);
      if (output.includes(o.readyLine)) {
        clearTimeout(timer);
        resolve();
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${o.name} exited with ${code}:\n${output}`));
    });
  }).finally(() => proc.removeAllListeners('exit'));
  return { proc, ready };
}
