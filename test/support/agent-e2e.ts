import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import type { RequestRecord } from '../../shared/domain';
import { type CliResult, ROOT, runCli, TestDaemon } from './daemon';
import { waitForPending } from './events';

/** A real agent CLI installed in test/agents (pinned by its package.json). */
export const agentBin = (name: string): string =>
  join(ROOT, 'test', 'agents', 'node_modules', '.bin', name);

export interface AgentRun {
  code: number;
  stdout: string;
  stderr: string;
  seconds: number;
}

/** Runs an agent CLI to its end; never throws on a non-zero exit. */
export function runAgent(
  bin: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<AgentRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code: code ?? -1, stdout, stderr, seconds: (Date.now() - started) / 1000 }),
    );
  });
}

export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/**
 * A temporary home, a git project with one commit and a bare remote `origin` it pushes to:
 * what every agent's end-to-end test drives.
 */
export class PushProject {
  readonly home: string;
  readonly project: string;
  readonly remote: string;

  constructor(readonly dir = mkdtempSync(join(tmpdir(), 'gatehouse-agent-e2e-'))) {
    this.home = join(dir, 'home');
    this.project = join(dir, 'project');
    this.remote = join(dir, 'remote.git');
    mkdirSync(this.home);
    mkdirSync(this.project);
    git(dir, 'init', '-q', '--bare', '-b', 'main', this.remote);
    git(this.project, 'init', '-q', '-b', 'main');
    git(this.project, 'config', 'user.email', 'dev@example.com');
    git(this.project, 'config', 'user.name', 'Dev');
    git(this.project, 'remote', 'add', 'origin', this.remote);
    this.commit('first');
  }

  /** Commits a change to notes.txt; returns the new HEAD. */
  commit(text: string): string {
    writeFileSync(join(this.project, 'notes.txt'), `${text}\n`);
    git(this.project, 'add', 'notes.txt');
    git(this.project, 'commit', '-q', '-m', text);
    return this.head();
  }

  head(): string {
    return git(this.project, 'rev-parse', 'HEAD');
  }

  /** The commit the remote's main points at, or undefined when nothing was pushed. */
  remoteHead(): string | undefined {
    try {
      return git(this.remote, 'rev-parse', '--verify', '-q', 'refs/heads/main');
    } catch {
      return undefined;
    }
  }
}

/**
 * The pending request (for `action`, or any) once it is filed, or an error as soon as
 * `running` (the agent's run) ends first: then the run's outcome says why nothing was asked.
 */
export async function pendingWhileRunning(
  admin: AdminClient,
  running: Promise<AgentRun>,
  action?: string,
): Promise<RequestRecord> {
  const ended = running.then((run) => {
    throw new Error(
      `the agent ended (exit ${run.code}) without a pending ${action ?? ''} request:\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`,
    );
  });
  // A real CLI can take most of a test's 120 s to reach its tool call on a loaded machine.
  return Promise.race([waitForPending(admin, action ?? (() => true), 110_000), ended]);
}

/** The first pending request, whatever its action (up to `ms`). */
export const waitForAnyPending = (admin: AdminClient, ms = 10_000): Promise<RequestRecord> =>
  waitForPending(admin, () => true, ms);

/**
 * What a person does with an agent's `git push origin main`: waits until it is pending in
 * Gatehouse (nothing has reached the remote yet), decides it, and returns the agent's run
 * once it has ended, with the push landed (approve) or not (deny).
 */
export async function decidePush(
  admin: AdminClient,
  p: PushProject,
  running: Promise<AgentRun>,
  decision: 'approve' | 'deny',
  reason?: string,
): Promise<AgentRun> {
  const before = p.remoteHead();
  const head = p.head();
  const pending = await pendingWhileRunning(admin, running, 'git_push');
  expect(pending.target).toBe('origin main');
  expect(p.remoteHead()).toBe(before);
  await admin.call('decide', {
    requestId: pending.requestId,
    decision,
    ...(reason ? { reason } : {}),
  });
  const run = await running;
  expect(p.remoteHead(), run.stderr.slice(-2000)).toBe(decision === 'approve' ? head : before);
  return run;
}

/**
 * An edit of an agent's own config that changes its gate (a hook switched off, or one of the
 * agent's own added), which the agent runs as one shell command.
 */
export interface GatePolicyEdit {
  /** The command the scripted model has the agent run; its request is matched by it. */
  command: string;
  /** The file the command would edit. */
  file: string;
  /** What `file` must still hold after the run; by default what it holds once the rule is added. */
  contents?: string;
  /** The failure message when `file` was edited. */
  editedMessage: string;
}

/**
 * Under a person's broad rule allowing every edit (added here, removed whatever happens), runs
 * the agent (`start` scripts its model to run `edit.command`) and denies the request the
 * command files, which must be asked as a Gatehouse policy change, critical: a broad rule must
 * not let the agent change its own gate. The run must then exit 0 with `edit.file`
 * unchanged. When the agent ends without asking, the run's exit and the file are still checked
 * before "the edit asked" fails, so the failure says what the agent did instead.
 */
export async function denyGatePolicyEditUnderEditRule(
  admin: AdminClient,
  edit: GatePolicyEdit,
  start: () => Promise<AgentRun>,
): Promise<void> {
  const { rule } = await admin.call('rules.add', { action: 'edit_file', tier: 'auto' });
  const unchanged = edit.contents ?? readFileSync(edit.file, 'utf8');
  try {
    const running = start();
    const asked = await Promise.race([
      running.then(() => undefined),
      waitForPending(admin, (r) => r.command === edit.command, 110_000),
    ]);
    if (asked) {
      expect(asked).toMatchObject({
        rule: 'protected:change_gatehouse_policy',
        risk: 'critical',
      });
      await admin.call('decide', { requestId: asked.requestId, decision: 'deny' });
    }
    const run = await running;
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(readFileSync(edit.file, 'utf8'), edit.editedMessage).toBe(unchanged);
    expect(asked, 'the edit asked').toBeDefined();
  } finally {
    await admin.call('rules.remove', { ruleId: rule.ruleId });
  }
}

/** A model server the agent tests script; closed after the last test. */
export interface ModelServer {
  close(): Promise<void>;
}

/**
 * What every agent's end-to-end test stands on: a daemon (no dashboard) and the agent's
 * scripted model server, started side by side, a fresh {@link PushProject}, and an admin
 * connection.
 */
export interface AgentStage<M extends ModelServer> {
  daemon: TestDaemon;
  /** A test that restarts the daemon puts the new connection here ({@link relaunch}). */
  admin: AdminClient;
  model: M;
  p: PushProject;
}

/** Starts an {@link AgentStage}; if the admin connection fails, stops what was started. */
export async function openAgentStage<M extends ModelServer>(
  startModel: () => Promise<M>,
): Promise<AgentStage<M>> {
  const [daemon, model] = await Promise.all([
    TestDaemon.start({}, ['--no-dashboard']),
    startModel(),
  ]);
  const p = new PushProject();
  try {
    return { daemon, admin: await daemon.admin(), model, p };
  } catch (error) {
    // No stage reaches the caller's afterAll, so nothing else would stop these.
    await closeAgentStage({ daemon, model, p });
    throw error;
  }
}

/** Undoes {@link openAgentStage}, whatever of it was set up; undefined when it never ran. */
export async function closeAgentStage(
  s: Partial<AgentStage<ModelServer>> | undefined,
): Promise<void> {
  s?.admin?.close();
  await s?.model?.close();
  await s?.daemon?.stop();
  if (s?.p) rmSync(s.p.dir, { recursive: true, force: true });
}

/** `gatehouse hook ARGS` with the stage's project HOME (and `env`); it must succeed. */
export async function installHook(
  { daemon, p }: Pick<AgentStage<ModelServer>, 'daemon' | 'p'>,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<CliResult> {
  const installed = await runCli({ ...daemon.env, HOME: p.home, ...env }, ['hook', ...args]);
  expect(installed.code, installed.stderr).toBe(0);
  return installed;
}

/** Starts the daemon again after a test stopped it; returns a fresh admin connection. */
export async function relaunch(daemon: TestDaemon, admin: AdminClient): Promise<AdminClient> {
  await daemon.launch(['--no-dashboard']);
  admin.close();
  return daemon.admin();
}

/**
 * Runs the agent while `agent` is paused in Gatehouse, on a new commit: the push must not
 * land and nothing may be filed for a person. Resumes the agent whatever happens.
 */
export async function runWhilePaused(
  admin: AdminClient,
  p: PushProject,
  agent: string,
  start: () => Promise<AgentRun>,
): Promise<AgentRun> {
  const before = p.remoteHead();
  p.commit('while paused');
  await admin.call('pause', { agent, reason: 'lunch break' });
  try {
    const run = await start();
    expect(p.remoteHead(), run.stderr.slice(-2000)).toBe(before);
    const { requests } = await admin.call('pending.list', {});
    expect(requests).toEqual([]);
    return run;
  } finally {
    await admin.call('resume', { agent });
  }
}
