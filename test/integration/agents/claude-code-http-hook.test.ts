import { readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicModelServer, type ToolStep } from '../../support/model-server/anthropic';
import { runClaude } from '../../support/claude-cli';
import { runCli, waitForPending } from '../../support/daemon';
import {
  type AgentStage,
  closeAgentStage,
  decidePush,
  installHook,
  openAgentStage,
  pendingWhileRunning,
  relaunch,
} from '../../support/agent-e2e';

interface HttpReply {
  status: number;
  body: string;
}

/** One raw POST to the hook endpoint, with the headers given. */
function post(port: number, headers: Record<string, string>, body: string): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/hooks/claude-code', method: 'POST', headers },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The Claude Code hook as an `http` hook served by the daemon, with the real Claude Code
 * (2.1.330): installed by `gatehouse hook claude-code --install --http` into a temporary HOME,
 * the daemon started after it (it serves the hook from hook-http.json at start).
 */
describe('the http hook with the real Claude Code', () => {
  let s: AgentStage<AnthropicModelServer>;
  let port: number;
  let secret: string;

  beforeAll(async () => {
    s = await openAgentStage(() => AnthropicModelServer.start());
    // The sandbox on, as the install leaves it: the approved push below writes to a remote
    // outside the project, which only a call a person approved may (it runs unsandboxed).
    const installed = await installHook(s, ['claude-code', '--install', '--http']);
    expect(installed.stdout).toMatch(/EVERY tool call is blocked/);
    ({ port, secret } = JSON.parse(readFileSync(join(s.daemon.home, 'hook-http.json'), 'utf8')) as {
      port: number;
      secret: string;
    });
    // The daemon serves the http hook from its next start.
    await s.daemon.kill9();
    s.admin = await relaunch(s.daemon, s.admin);
    expect(s.daemon.output).toContain(`http hook on http://127.0.0.1:${port}/hooks/claude-code`);
  });

  afterAll(() => closeAgentStage(s));

  /** Runs Claude Code with the model scripted to make these calls (`env`: Claude Code's extra). */
  const claude = (steps: ToolStep[], env: NodeJS.ProcessEnv = {}) => {
    const { daemon, model, p } = s;
    model.script(steps);
    return runClaude({
      cwd: p.project,
      home: p.home,
      modelUrl: model.url,
      env: { ...daemon.env, ...env },
    });
  };

  const push: ToolStep = {
    name: 'Bash',
    input: { command: 'git push origin main', description: 'Push main to origin' },
  };

  it('writes http entries with the secret header from allowedEnvVars, the secret in a 0600 file, no command entry', () => {
    const path = join(s.p.home, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(path, 'utf8')) as {
      hooks: Record<string, { hooks: Record<string, unknown>[] }[]>;
      env: Record<string, string>;
    };
    expect(settings.hooks.PreToolUse![0]!.hooks[0]).toEqual({
      type: 'http',
      url: `http://127.0.0.1:${port}/hooks/claude-code`,
      timeout: 60,
      headers: {
        Authorization: 'Bearer $GATEHOUSE_HOOK_SECRET',
        'X-Gatehouse-Cdpath': '$CDPATH',
        'X-Gatehouse-Path': '$PATH',
        'X-Gatehouse-Claude-Config-Dir': '$CLAUDE_CONFIG_DIR',
        'X-Gatehouse-Xdg-Config-Home': '$XDG_CONFIG_HOME',
        'X-Gatehouse-Bash-Env': '$BASH_ENV',
        'X-Gatehouse-Env': '$ENV',
        'X-Gatehouse-Zdotdir': '$ZDOTDIR',
        'X-Gatehouse-Git-Config-Global': '$GIT_CONFIG_GLOBAL',
        'X-Gatehouse-Pythonuserbase': '$PYTHONUSERBASE',
        'X-Gatehouse-Pyenv-Root': '$PYENV_ROOT',
        'X-Gatehouse-Nvm-Dir': '$NVM_DIR',
        'X-Gatehouse-Cargo-Home': '$CARGO_HOME',
        'X-Gatehouse-Rustup-Home': '$RUSTUP_HOME',
        'X-Gatehouse-Aws-Config-File': '$AWS_CONFIG_FILE',
        'X-Gatehouse-Kubeconfig': '$KUBECONFIG',
        'X-Gatehouse-Docker-Config': '$DOCKER_CONFIG',
        'X-Gatehouse-Gnupghome': '$GNUPGHOME',
        'X-Gatehouse-Gomodcache': '$GOMODCACHE',
        'X-Gatehouse-Gocache': '$GOCACHE',
        'X-Gatehouse-Gradle-User-Home': '$GRADLE_USER_HOME',
        'X-Gatehouse-Pre-Commit-Home': '$PRE_COMMIT_HOME',
        'X-Gatehouse-Workon-Home': '$WORKON_HOME',
        'X-Gatehouse-Pipx-Home': '$PIPX_HOME',
        'X-Gatehouse-Npm-Config-Prefix': '$NPM_CONFIG_PREFIX',
      },
      allowedEnvVars: [
        'GATEHOUSE_HOOK_SECRET',
        'CDPATH',
        'PATH',
        'CLAUDE_CONFIG_DIR',
        'XDG_CONFIG_HOME',
        'BASH_ENV',
        'ENV',
        'ZDOTDIR',
        'GIT_CONFIG_GLOBAL',
        'PYTHONUSERBASE',
        'PYENV_ROOT',
        'NVM_DIR',
        'CARGO_HOME',
        'RUSTUP_HOME',
        'AWS_CONFIG_FILE',
        'KUBECONFIG',
        'DOCKER_CONFIG',
        'GNUPGHOME',
        'GOMODCACHE',
        'GOCACHE',
        'GRADLE_USER_HOME',
        'PRE_COMMIT_HOME',
        'WORKON_HOME',
        'PIPX_HOME',
        'NPM_CONFIG_PREFIX',
      ],
      onFailure: 'block',
    });
    expect(settings.env.GATEHOUSE_HOOK_SECRET).toBe(secret);
    expect(JSON.stringify(settings)).not.toContain('"command"');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(s.daemon.home, 'hook-http.json')).mode & 0o777).toBe(0o600);
  });

  it('a git push waits for a person and lands when approved', async () => {
    const running = claude([push]);
    const pending = await waitForPending(s.admin, 'git_push');
    expect(pending).toMatchObject({ agent: 'claude-code', target: 'origin main' });
    const run = await decidePush(s.admin, s.p, running, 'approve');
    expect(run.code, run.stderr).toBe(0);
    // The sandbox ran (bubblewrap is installed here), and the approval took the push out of it.
    expect(run.stderr).not.toMatch(/Sandbox disabled|WITHOUT sandboxing/);
    expect(s.model.toolResults()[0]).toMatchObject({ isError: false });
    // SessionEnd came over http too: `claude -p` completed the session.
    const { sessions } = await s.admin.call('sessions.list', { agent: 'claude-code' });
    expect(sessions.map((s) => s.status)).toEqual(['completed']);
  });

  it('a denied git push never lands, and Claude Code is told why', async () => {
    s.p.commit('second');
    const run = await decidePush(s.admin, s.p, claude([push]), 'deny', 'not before the release');
    expect(run.code, run.stderr).toBe(0);
    const [result] = s.model.toolResults();
    expect(result?.isError).toBe(true);
    expect(result?.text).toContain('not before the release');
  });

  /**
   * Claude Code's environment is not the daemon's, and its Bash commands inherit it: a call
   * that reads Gatehouse's own secrets only through that environment must ask. The person
   * denies; the command never runs, and nothing the model receives holds the secret.
   */
  async function deniedThroughClaudesEnvironment(
    command: string,
    env: NodeJS.ProcessEnv,
    rule: string,
    secretValue: string,
  ): Promise<void> {
    const running = claude([{ name: 'Bash', input: { command, description: 'Look around' } }], env);
    const pending = await pendingWhileRunning(s.admin, running);
    expect(pending).toMatchObject({ command, rule, risk: 'critical' });
    await s.admin.call('decide', { requestId: pending.requestId, decision: 'deny' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(s.model.toolResults()[0]?.isError).toBe(true);
    expect(JSON.stringify(s.model.requests)).not.toContain(secretValue);
  }

  it("`cd name` follows Claude Code's CDPATH (sent in a header), not the daemon's: the admin token stays unread", async () => {
    // The folder above Gatehouse's home on Claude Code's CDPATH: `cd home` goes there.
    const token = readFileSync(join(s.daemon.home, 'admin.token'), 'utf8').trim();
    expect(s.daemon.env.CDPATH).toBeUndefined();
    await deniedThroughClaudesEnvironment(
      'cd home && cat admin.token',
      { CDPATH: dirname(s.daemon.home) },
      'protected:gatehouse',
      token,
    );
  });

  it("a hub token in Claude Code's environment alone: env asks (the http hook cannot see it)", async () => {
    const hubToken = 'ghp-hub-token-in-claude-only-93b1';
    expect(s.daemon.env.GATEHOUSE_HUB_TOKEN).toBeUndefined();
    await deniedThroughClaudesEnvironment(
      'env',
      { GATEHOUSE_HUB_TOKEN: hubToken },
      'protected:gatehouse_secret',
      hubToken,
    );
  });

  it('refuses a request without the secret, with a wrong one, or with a foreign Host', async () => {
    const payload = JSON.stringify({
      session_id: 'intruder',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'git push origin main' },
    });
    const json = { 'Content-Type': 'application/json' };
    expect((await post(port, json, payload)).status).toBe(401);
    expect(
      (await post(port, { ...json, Authorization: `Bearer ${secret.slice(1)}x` }, payload)).status,
    ).toBe(401);
    expect(
      (
        await post(
          port,
          { ...json, Authorization: `Bearer ${secret}`, Host: `evil.example:${port}` },
          payload,
        )
      ).status,
    ).toBe(403);
    // A page's simple request (text/plain) is not read even with the secret.
    expect(
      (
        await post(
          port,
          { 'Content-Type': 'text/plain', Authorization: `Bearer ${secret}` },
          payload,
        )
      ).status,
    ).toBe(415);
    const { requests } = await s.admin.call('pending.list', {});
    expect(requests).toEqual([]);
  });

  it('with Gatehouse down every tool call is blocked, a read included (onFailure "block")', async () => {
    const before = s.p.remoteHead();
    s.p.commit('third');
    await s.daemon.kill9();
    try {
      const run = await claude([
        { name: 'Read', input: { file_path: join(s.p.project, 'notes.txt') } },
        push,
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(s.p.remoteHead()).toBe(before);
      const results = s.model.toolResults();
      expect(results).toHaveLength(2);
      for (const r of results) {
        expect(r.isError).toBe(true);
        expect(r.text).toMatch(/blocking because onFailure is "block"/);
      }
    } finally {
      s.admin = await relaunch(s.daemon, s.admin);
    }
  });

  it('--uninstall removes the http entries and the secret; --install goes back to the command hook', async () => {
    const out = await runCli({ ...s.daemon.env, HOME: s.p.home }, [
      'hook',
      'claude-code',
      '--install',
    ]);
    expect(out.code, out.stderr).toBe(0);
    const path = join(s.p.home, '.claude', 'settings.json');
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('"http"');
    expect(text).not.toContain(secret);
    expect(text).toContain('hook claude-code');
    const gone = await runCli({ ...s.daemon.env, HOME: s.p.home }, [
      'hook',
      'claude-code',
      '--uninstall',
    ]);
    expect(gone.code, gone.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({});
  });
});
