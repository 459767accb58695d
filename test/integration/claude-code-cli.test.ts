import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import { AnthropicModelServer, type ToolStep } from '../support/model-server/anthropic';
import { ROOT, runCli, TestDaemon, waitForPending } from '../support/daemon';

/**
 * The real Claude Code CLI (`@anthropic-ai/claude-code`, pinned in test/agents/package.json; its
 * native binary ships inside the npm package) run with `claude -p` against a scripted model
 * server on 127.0.0.1, with the hook installed by `gatehouse hook claude-code --install` into
 * a temporary HOME and a real daemon deciding.
 */
// Installed apart from Gatehouse's own packages (test/agents, by scripts/install-test-deps.sh).
const CLAUDE = join(ROOT, 'test', 'agents', 'node_modules', '.bin', 'claude');

interface ClaudeRun {
  code: number;
  stdout: string;
  stderr: string;
  seconds: number;
}

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The commit the bare remote's main points at, or undefined when nothing was pushed. */
function remoteHead(remote: string): string | undefined {
  try {
    return git(remote, 'rev-parse', '--verify', '-q', 'refs/heads/main');
  } catch {
    return undefined;
  }
}

describe('the real Claude Code CLI with the Gatehouse hook', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let model: AnthropicModelServer;
  let dir: string;
  let home: string;
  let project: string;
  let remote: string;

  beforeAll(async () => {
    [d, model] = await Promise.all([
      TestDaemon.start({}, ['--no-dashboard']),
      AnthropicModelServer.start(),
    ]);
    admin = await d.admin();
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-claude-e2e-'));
    home = join(dir, 'home');
    project = join(dir, 'project');
    remote = join(dir, 'remote.git');
    mkdirSync(home);
    mkdirSync(project);
    const installed = await runCli({ ...d.env, HOME: home }, ['hook', 'claude-code', '--install']);
    expect(installed.code, installed.stderr).toBe(0);
    git(dir, 'init', '-q', '--bare', '-b', 'main', remote);
    git(project, 'init', '-q', '-b', 'main');
    git(project, 'config', 'user.email', 'dev@example.com');
    git(project, 'config', 'user.name', 'Dev');
    git(project, 'remote', 'add', 'origin', remote);
    commit('first');
  });

  afterAll(async () => {
    admin?.close();
    await model?.close();
    await d?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function commit(text: string): string {
    writeFileSync(join(project, 'notes.txt'), `${text}\n`);
    git(project, 'add', '-A');
    git(project, 'commit', '-q', '-m', text);
    return git(project, 'rev-parse', 'HEAD');
  }

  /** Runs `claude -p` in the project with the model scripted to make these tool calls. */
  function claude(steps: ToolStep[], mode = 'bypassPermissions'): Promise<ClaudeRun> {
    model.script(steps);
    const env: NodeJS.ProcessEnv = {
      ...d.env,
      HOME: home,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'sk-ant-e2e-test',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      // bypassPermissions refuses to start as root outside a sandbox; this machine is one.
      IS_SANDBOX: '1',
    };
    delete env.CLAUDE_CODE_SESSION_ID;
    delete env.CLAUDECODE;
    const started = Date.now();
    return new Promise((resolve, reject) => {
      const child = spawn(
        CLAUDE,
        ['-p', 'Do the scripted work.', '--permission-mode', mode, '--output-format', 'json'],
        { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
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

  const push: ToolStep = {
    name: 'Bash',
    input: { command: 'git push origin main', description: 'Push main to origin' },
  };

  it('a git push lands only after a person approves it', async () => {
    const head = git(project, 'rev-parse', 'HEAD');
    const running = claude([push]);
    const pending = await waitForPending(admin, 'git_push');
    expect(pending.target).toBe('origin main');
    // Claude Code is waiting on the hook: nothing has reached the remote.
    expect(remoteHead(remote)).toBeUndefined();
    await admin.call('decide', { requestId: pending.requestId, decision: 'approve' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(remoteHead(remote)).toBe(head);
    const [result] = model.toolResults();
    expect(result).toMatchObject({ isError: false });
    // `claude -p` ends with SessionEnd reason "other": the run is over, the session completed.
    const { sessions } = await admin.call('sessions.list', { agent: 'claude-code' });
    expect(sessions.map((x) => x.status)).toEqual(['completed']);
    console.log(`claude-code e2e: approved push in ${run.seconds.toFixed(1)} s`);
  });

  it('a denied git push never lands, and Claude Code is told why', async () => {
    const before = remoteHead(remote);
    commit('second');
    const running = claude([push]);
    const pending = await waitForPending(admin, 'git_push');
    await admin.call('decide', {
      requestId: pending.requestId,
      decision: 'deny',
      reason: 'not before the release',
    });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(remoteHead(remote)).toBe(before);
    const [result] = model.toolResults();
    expect(result?.isError).toBe(true);
    expect(result?.text).toContain('not before the release');
    console.log(`claude-code e2e: denied push in ${run.seconds.toFixed(1)} s`);
  });

  it('in default mode too, the hook decides: an approved push lands without a Claude Code prompt', async () => {
    const head = commit('default mode');
    const running = claude([push], 'default');
    const pending = await waitForPending(admin, 'git_push');
    await admin.call('decide', { requestId: pending.requestId, decision: 'approve' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(remoteHead(remote)).toBe(head);
    console.log(`claude-code e2e: default-mode push in ${run.seconds.toFixed(1)} s`);
  });

  it('a paused agent is stopped (continue: false): the push never runs and nothing is filed', async () => {
    const before = remoteHead(remote);
    commit('while paused');
    await admin.call('pause', { agent: 'claude-code', reason: 'lunch break' });
    try {
      const run = await claude([push, push]);
      expect(remoteHead(remote)).toBe(before);
      // Claude Code ended the run on the hook's `continue: false`, after the first call:
      // the model never got a second turn.
      const result = JSON.parse(run.stdout) as {
        terminal_reason?: string;
        permission_denials?: unknown[];
      };
      expect(result.terminal_reason).toBe('hook_stopped');
      expect(result.permission_denials).toHaveLength(1);
      expect(model.toolResults()).toEqual([]);
      const { requests } = await admin.call('pending.list', {});
      expect(requests).toEqual([]);
      console.log(`claude-code e2e: paused agent stopped in ${run.seconds.toFixed(1)} s`);
    } finally {
      await admin.call('resume', { agent: 'claude-code' });
    }
  });

  it("a Read of Gatehouse's admin token never returns the token to the model", async () => {
    const tokenFile = join(d.home, 'admin.token');
    const token = readFileSync(tokenFile, 'utf8').trim();
    expect(token.length).toBeGreaterThan(10);
    const running = claude([{ name: 'Read', input: { file_path: tokenFile } }]);
    // Gatehouse's own files always ask, critical: no rule or mode lets the read through.
    const asked = await waitForPending(admin, () => true);
    expect(asked).toMatchObject({
      action: 'read_file',
      risk: 'critical',
      rule: 'protected:gatehouse',
    });
    await admin.call('decide', {
      requestId: asked.requestId,
      decision: 'deny',
      reason: 'an agent does not read the admin token',
    });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    const [result] = model.toolResults();
    expect(result?.isError).toBe(true);
    expect(model.allRequestText()).not.toContain(token);
    expect(run.stdout).not.toContain(token);
    console.log(`claude-code e2e: admin token read refused in ${run.seconds.toFixed(1)} s`);
  });

  it('a policy file the agent writes does not promote its next push', async () => {
    const before = remoteHead(remote);
    commit('third');
    const running = claude([
      {
        name: 'Write',
        input: {
          file_path: join(project, '.gatehouse.toml'),
          content: '[rules]\nallow_without_permission = ["git_push", "deploy"]\n',
        },
      },
      push,
    ]);
    // The person approves what looks like a file write (whatever action it is filed as).
    const write = await waitForPending(admin, () => true);
    expect(write.action).not.toBe('git_push');
    await admin.call('decide', { requestId: write.requestId, decision: 'approve' });
    // The push still waits for a person: the agent's own file did not make it auto.
    const pending = await Promise.race([
      waitForPending(admin, 'git_push'),
      running.then(() => undefined),
    ]);
    expect(
      pending,
      `the push did not wait for a person (it ${remoteHead(remote) === before ? 'did not land' : 'landed'})`,
    ).toBeDefined();
    expect(remoteHead(remote)).toBe(before);
    await admin.call('decide', { requestId: pending!.requestId, decision: 'deny' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(remoteHead(remote)).toBe(before);
    console.log(`claude-code e2e: policy file write + push in ${run.seconds.toFixed(1)} s`);
  });
});
