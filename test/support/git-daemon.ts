import { spawn, type ChildProcess } from 'node:child_process';
import { basename, dirname } from 'node:path';
import { freePort } from './free-port';

/**
 * A bare repository served over the network: `git daemon` on 127.0.0.1 with pushes
 * enabled, so a push to it needs a connection (an OS sandbox without network refuses it,
 * unlike a push to a path). `log` is its access log (`--verbose`): each connection and each
 * service asked for (`Request receive-pack for '/remote.git'`).
 */
export class GitDaemon {
  log = '';

  private constructor(
    private readonly child: ChildProcess,
    /** `git://127.0.0.1:<port>/<name>.git`: the URL of the repository it serves. */
    readonly url: string,
  ) {}

  static async serve(bareRepo: string): Promise<GitDaemon> {
    const port = await freePort();
    const base = dirname(bareRepo);
    const child = spawn(
      'git',
      [
        'daemon',
        '--listen=127.0.0.1',
        `--port=${port}`,
        `--base-path=${base}`,
        '--export-all',
        '--enable=receive-pack',
        '--reuseaddr',
        '--verbose',
        '--informative-errors',
        base,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const d = new GitDaemon(child, `git://127.0.0.1:${port}/${basename(bareRepo)}`);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`git daemon did not start:\n${d.log}`)),
        10_000,
      );
      child.once('error', reject);
      child.stderr!.on('data', (b: Buffer) => {
        d.log += b.toString();
        if (d.log.includes('Ready to rumble')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    return d;
  }

  /** How many pushes reached it (receive-pack requests). */
  pushes(): number {
    return this.log.split('Request receive-pack').length - 1;
  }

  stop(): Promise<void> {
    if (this.child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill();
    });
  }
}
