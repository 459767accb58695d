import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import type { RequestRecord } from '../../shared/domain';
import { ROOT } from './daemon';

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
 * Polls the admin API every 25 ms until a pending request (for `action`, or any) shows, or
 * `running` (the agent's run) ends first: then the run's outcome says why nothing was asked.
 */
export async function pendingWhileRunning(
  admin: AdminClient,
  running: Promise<AgentRun>,
  action?: string,
): Promise<RequestRecord> {
  let ended: AgentRun | undefined;
  void running.then((run) => (ended = run));
  for (;;) {
    const { requests } = await admin.call('pending.list', {});
    const found = requests.find(
      (r) => r.status === 'pending' && (action === undefined || r.action === action),
    );
    if (found) return found;
    if (ended)
      throw new Error(
        `the agent ended (exit ${ended.code}) without a pending ${action ?? ''} request:\n${ended.stdout.slice(-2000)}\n${ended.stderr.slice(-2000)}`,
      );
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The first pending request, whatever its action (polled every 25 ms, up to `ms`). */
export async function waitForAnyPending(admin: AdminClient, ms = 10_000): Promise<RequestRecord> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const { requests } = await admin.call('pending.list', {});
    const found = requests.find((r) => r.status === 'pending');
    if (found) return found;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no pending request appeared within ${ms / 1000} s`);
}

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
