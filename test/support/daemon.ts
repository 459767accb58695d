import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminClient } from '../../clients/cli/admin-client';
import { afterAll, beforeAll } from 'vitest';
import { GatehouseClient, type ConnectOptions } from '../../clients/sdk/client';
import { launchUntilReady } from './ready-process';

export const ROOT = join(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli', 'gatehouse.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI with the daemon's environment; never throws on a non-zero exit. */
export function runCli(env: NodeJS.ProcessEnv, args: string[], input?: string): Promise<CliResult> {
  return runNode(CLI, args, env, input);
}

/** Runs `script` with this Node, `input` on stdin; never throws on a non-zero exit. */
export function runNode(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  input?: string,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/**
 * A real daemon process (`gatehouse daemon`) on a temporary GATEHOUSE_HOME. Each test gets
 * its own; `stop()` always removes the directory.
 */
export class TestDaemon {
  proc?: ChildProcess;
  output = '';
  dashboardUrl?: string | undefined;

  private constructor(
    readonly home: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  get socketPath(): string {
    return this.env.GATEHOUSE_SOCKET!;
  }

  /**
   * Starts a daemon in a fresh temp home. `prepareHome` runs on the home folder (already made,
   * 0700) before the first start, for tests that begin with a history on disk.
   */
  static async start(
    extraEnv: NodeJS.ProcessEnv = {},
    args: string[] = [],
    prepareHome?: (home: string) => void,
  ): Promise<TestDaemon> {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
    const home = join(dir, 'home');
    if (prepareHome) {
      mkdirSync(home, { mode: 0o700 });
      prepareHome(home);
    }
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      GATEHOUSE_HOME: home,
      GATEHOUSE_SOCKET: join(dir, 'run', 'agent.sock'),
      // Tests run side by side: each dashboard on a free port, not the fixed default.
      GATEHOUSE_DASHBOARD_PORT: '0',
      ...extraEnv,
    };
    const d = new TestDaemon(home, env);
    (d as { dir?: string }).dir = dir;
    await d.launch(args);
    return d;
  }

  /** Starts (or restarts) the process and waits until it says it listens. */
  async launch(args: string[] = []): Promise<void> {
    this.output = '';
    const { proc, ready } = launchUntilReady({
      argv: [CLI, 'daemon', ...args],
      env: this.env,
      name: 'daemon',
      readyLine: 'gatehouse: ready',
      timeoutMs: 20_000,
      onOutput: (output) => {
        this.output = output;
        const url = /dashboard at (\S+)/.exec(output);
        if (url) this.dashboardUrl = url[1];
      },
    });
    this.proc = proc;
    await ready;
  }

  cli(args: string[], input?: string): Promise<CliResult> {
    return runCli(this.env, args, input);
  }

  agent(o: Omit<ConnectOptions, 'socketPath'>): Promise<GatehouseClient> {
    // Tests see a refused or dropped connection as it happens, not after a reconnect.
    return GatehouseClient.connect({ reconnect: false, ...o, socketPath: this.socketPath });
  }

  admin(): Promise<AdminClient> {
    return AdminClient.connect(this.env);
  }

  /** SIGKILL: no shutdown code runs. */
  async kill9(): Promise<void> {
    await this.signal('SIGKILL');
  }

  async signal(sig: NodeJS.Signals): Promise<number | null> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return proc?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) =>
      proc.once('exit', (code) => resolve(code)),
    );
    proc.kill(sig);
    return exited;
  }

  async stop(): Promise<void> {
    await this.signal('SIGTERM');
    rmSync((this as { dir?: string }).dir!, { recursive: true, force: true });
  }
}

export { waitForPending } from './events';

/**
 * One daemon, and an admin connection to it, for the enclosing describe block (or file):
 * started before its first test, always stopped after its last. `use` receives both.
 */
export function daemonPerDescribe(
  use: (daemon: TestDaemon, admin: AdminClient) => void,
  extraEnv: NodeJS.ProcessEnv = {},
  args: string[] = ['--no-dashboard'],
): void {
  let daemon: TestDaemon | undefined;
  let admin: AdminClient | undefined;
  beforeAll(async () => {
    daemon = await TestDaemon.start(extraEnv, args);
    admin = await daemon.admin();
    use(daemon, admin);
  });
  afterAll(async () => {
    admin?.close();
    await daemon?.stop();
  });
}
