import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, runCli, type CliResult, type TestDaemon } from './daemon';
import { launchUntilReady } from './ready-process';

/**
 * A real hub process (`gatehouse hub`) on a temporary GATEHOUSE_HOME and a free port: the
 * embedded database, or `databaseUrl` (a TestPostgres). `stop()` always removes the folder.
 */
export class TestHub {
  proc?: ChildProcess;
  output = '';
  /** Set while the test stops the process itself (a signal): its exit is expected. */
  private exiting = false;
  url = '';

  private constructor(
    readonly dir: string,
    readonly env: NodeJS.ProcessEnv,
    private readonly args: string[],
  ) {}

  /** The replica id the process printed (each start has its own). */
  replicaId(): string {
    return /replica (\S+) listening/.exec(this.output)?.[1] ?? '';
  }

  get home(): string {
    return this.env.GATEHOUSE_HOME!;
  }

  get adminTokenFile(): string {
    return join(this.home, 'hub', 'admin.token');
  }

  static async start(
    o: {
      databaseUrl?: string;
      port?: number;
      args?: string[];
      env?: NodeJS.ProcessEnv;
      /** Another replica's hub: its admin token is copied here first, as an admin would. */
      sameHubAs?: TestHub;
    } = {},
  ): Promise<TestHub> {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-hub-'));
    const home = join(dir, 'home');
    mkdirSync(home, { mode: 0o700 });
    if (o.sameHubAs) {
      mkdirSync(join(home, 'hub'), { mode: 0o700 });
      copyFileSync(o.sameHubAs.adminTokenFile, join(home, 'hub', 'admin.token'));
    }
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      GATEHOUSE_HOME: home,
      ...(o.databaseUrl ? { GATEHOUSE_HUB_DATABASE_URL: o.databaseUrl } : {}),
      ...o.env,
    };
    const hub = new TestHub(dir, env, ['hub', '--port', String(o.port ?? 0), ...(o.args ?? [])]);
    await hub.launch();
    return hub;
  }

  /** Starts (or restarts) the process and waits for `ready`. */
  async launch(): Promise<void> {
    this.output = '';
    this.exiting = false;
    const { proc, ready } = launchUntilReady({
      argv: [CLI, ...this.args],
      env: this.env,
      name: 'hub',
      readyLine: 'gatehouse hub: ready',
      timeoutMs: 60_000,
      onOutput: (output) => {
        this.output = output;
        const url = /listening on (https?:\/\/\S+)/.exec(output);
        if (url) this.url = url[1]!;
      },
    });
    this.proc = proc;
    await ready;
    // A hub that dies on its own mid-test (a crash on a database restart, say) would show
    // only as refused connections: its last output says why.
    proc.once('exit', (code, signal) => {
      if (this.proc === proc && !this.exiting)
        console.error(
          `test hub ${this.url} exited on its own (code ${code}, signal ${signal}); its output ends:\n${this.output.slice(-4000)}`,
        );
    });
  }

  /** A hub admin command, run on the hub's host with its GATEHOUSE_HOME. */
  cli(args: string[]): Promise<CliResult> {
    return runCli(this.env, ['hub', ...args, '--url', this.url]);
  }

  /** A join code for `machine`. */
  async invite(machine: string): Promise<string> {
    const r = await this.cli(['invite', '--machine', machine]);
    if (r.code !== 0) throw new Error(`invite failed: ${r.stderr}`);
    return r.stdout.split('\n')[1]!.trim();
  }

  /** A person's personal token. */
  async person(name: string, role = 'approver'): Promise<string> {
    const r = await this.cli(['user', 'add', name, '--role', role, '--token']);
    if (r.code !== 0) throw new Error(`user add failed: ${r.stderr}`);
    return r.stdout.split('\n')[1]!.trim();
  }

  /** A new person's single-use sign-in link, as `gatehouse hub user add` prints it. */
  async signInLink(name: string, role = 'approver'): Promise<string> {
    const r = await this.cli(['user', 'add', name, '--role', role]);
    if (r.code !== 0) throw new Error(`user add failed: ${r.stderr}`);
    return r.stdout.split('\n')[1]!.trim();
  }

  /**
   * The hub's answer for one request (`/api/requests/one`) once `ready` says it is the one
   * awaited (published, with this status, with its picture...); throws after `timeoutMs`.
   */
  async requestWhen(
    requestId: string,
    token: string,
    ready: (answer: { status: number; body: Record<string, unknown> }) => boolean,
    timeoutMs = 20_000,
  ): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answer = await this.api('GET', `/api/requests/one?id=${requestId}`, { token });
      if (ready(answer)) return answer.body;
      if (Date.now() > deadline)
        throw new Error(
          `request ${requestId} on the hub is not as awaited after ${timeoutMs} ms: ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`,
        );
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** A call to the hub's HTTP API; never throws on a refusal. */
  async api(
    method: 'GET' | 'POST',
    path: string,
    o: { token?: string; body?: unknown } = {},
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(new URL(path, this.url), {
      method,
      headers: {
        ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
        ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
    });
    const body = (await res.json()) as Record<string, unknown>;
    // The hub logs why it failed, not the client: a test's message shows it.
    if (res.status >= 500) body.hubLog = this.output.slice(-4000);
    return { status: res.status, body };
  }

  async signal(sig: NodeJS.Signals): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    this.exiting = true;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill(sig);
    await exited;
  }

  async stop(): Promise<void> {
    await this.signal('SIGTERM');
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Joins `daemon`'s machine to `hub` as `machine` and waits until its link is up. */
export async function joinHub(daemon: TestDaemon, hub: TestHub, machine: string): Promise<void> {
  const code = await hub.invite(machine);
  const joined = await daemon.cli(['hub', 'join', hub.url, code]);
  if (joined.code !== 0) throw new Error(`join failed: ${joined.stderr}`);
  await waitForLink(daemon, true);
}

/** Waits until the daemon reports its hub link connected (or not). */
export async function waitForLink(
  daemon: TestDaemon,
  connected: boolean,
  timeoutMs = 20_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await daemon.cli(['hub', 'status', '--json']);
    const status = JSON.parse(r.stdout || '{}') as { state?: { connected?: boolean } };
    if (status.state?.connected === connected) return status as Record<string, unknown>;
    if (Date.now() > deadline)
      throw new Error(
        `the link did not become ${connected ? 'connected' : 'disconnected'}: ${r.stdout}${r.stderr}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Joins `daemon`'s machine as `machine`, owned by the person `owner`: invited on `hub`, joined
 * through `through` (another replica of it, or the same), and waits until its link is up.
 */
export async function joinOwned(
  daemon: TestDaemon,
  hub: TestHub,
  machine: string,
  owner: string,
  through: TestHub = hub,
): Promise<void> {
  const invited = await hub.cli(['invite', '--machine', machine, '--owner', owner]);
  if (invited.code !== 0) throw new Error(`invite failed: ${invited.stderr}`);
  const joined = await daemon.cli(['hub', 'join', through.url, invited.stdout.split('\n')[1]!]);
  if (joined.code !== 0) throw new Error(`join failed: ${joined.stderr}`);
  await waitForLink(daemon, true);
}
