import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import { AnthropicModelServer, type ToolStep } from '../support/model-server/anthropic';
import { git, gitProject, remoteHead, runClaude } from '../support/claude-cli';
import { CLI, runCli, TestDaemon, waitForPending } from '../support/daemon';

/**
 * Claude Code headless: the real `claude -p --permission-prompt-tool
 * mcp__gatehouse__permission_prompt` with `gatehouse mcp` as its MCP server, against a
 * scripted model server and a real daemon. No hook is installed in the first part: the
 * permission prompt alone gates the unattended run.
 */
describe('claude -p --permission-prompt-tool mcp__gatehouse__permission_prompt (real Claude Code)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let model: AnthropicModelServer;
  let dir: string;
  let home: string;
  let project: string;
  let remote: string;
  let mcpConfig: string;

  beforeAll(async () => {
    [d, model] = await Promise.all([
      TestDaemon.start({}, ['--no-dashboard']),
      AnthropicModelServer.start(),
    ]);
    admin = await d.admin();
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-claude-headless-'));
    home = join(dir, 'home');
    project = join(dir, 'project');
    remote = join(dir, 'remote.git');
    mkdirSync(home);
    mkdirSync(project);
    gitProject(project, remote);
    commit('first');
    mcpConfig = join(dir, 'mcp.json');
    writeFileSync(
      mcpConfig,
      JSON.stringify({
        mcpServers: { gatehouse: { command: process.execPath, args: [CLI, 'mcp'] } },
      }),
    );
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

  const headless = (steps: ToolStep[], mode = 'default') => {
    model.script(steps);
    return runClaude({
      cwd: project,
      home,
      modelUrl: model.url,
      env: d.env,
      mode,
      args: [
        '--mcp-config',
        mcpConfig,
        '--permission-prompt-tool',
        'mcp__gatehouse__permission_prompt',
      ],
    });
  };

  const push: ToolStep = {
    name: 'Bash',
    input: { command: 'git push origin main', description: 'Push main to origin' },
  };

  it('a git push waits for a person and lands when approved', async () => {
    const head = git(project, 'rev-parse', 'HEAD');
    const running = headless([push]);
    const pending = await waitForPending(admin, 'git_push');
    expect(pending).toMatchObject({ agent: 'claude-code', target: 'origin main' });
    expect(remoteHead(remote)).toBeUndefined();
    await admin.call('decide', { requestId: pending.requestId, decision: 'approve' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(remoteHead(remote)).toBe(head);
    expect(model.toolResults()[0]).toMatchObject({ isError: false });
    console.log(`claude -p permission prompt: approved push in ${run.seconds.toFixed(1)} s`);
  });

  it('a denied git push never lands, and Claude Code is told why', async () => {
    const before = remoteHead(remote);
    commit('second');
    const running = headless([push]);
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
  });

  it('with Gatehouse down the push is denied, never run', async () => {
    const before = remoteHead(remote);
    commit('third');
    model.script([push]);
    const run = await runClaude({
      cwd: project,
      home,
      modelUrl: model.url,
      env: {
        ...d.env,
        GATEHOUSE_SOCKET: join(dir, 'nowhere', 'agent.sock'),
        GATEHOUSE_HOME: join(dir, 'nowhere'),
      },
      mode: 'default',
      args: [
        '--mcp-config',
        mcpConfig,
        '--permission-prompt-tool',
        'mcp__gatehouse__permission_prompt',
      ],
    });
    expect(run.code, run.stderr).toBe(0);
    expect(remoteHead(remote)).toBe(before);
    const [result] = model.toolResults();
    expect(result?.isError).toBe(true);
    expect(result?.text).toMatch(/not reachable/);
  });

  it('a paused agent is stopped: the run ends at the first prompt (interrupt), nothing is filed', async () => {
    const before = remoteHead(remote);
    commit('while paused');
    await admin.call('pause', { agent: 'claude-code', reason: 'lunch break' });
    try {
      const run = await headless([push, push]);
      expect(remoteHead(remote)).toBe(before);
      const result = JSON.parse(run.stdout) as {
        terminal_reason?: string;
        permission_denials?: unknown[];
      };
      // Claude Code ended the run on the prompt's `interrupt`: no second tool call.
      expect(result.terminal_reason).toBe('aborted_tools');
      expect(result.permission_denials).toHaveLength(1);
      const { requests } = await admin.call('pending.list', {});
      expect(requests).toEqual([]);
    } finally {
      await admin.call('resume', { agent: 'claude-code' });
    }
  });

  it('a hook call and an MCP call of one Claude Code session land in one Gatehouse session', async () => {
    const installed = await runCli({ ...d.env, HOME: home }, ['hook', 'claude-code', '--install']);
    expect(installed.code, installed.stderr).toBe(0);
    try {
      const before = (await admin.call('sessions.list', { agent: 'claude-code' })).sessions;
      const running = headless(
        [
          { name: 'Bash', input: { command: 'git status', description: 'Status' } },
          {
            name: 'mcp__gatehouse__log_action',
            input: { type: 'note', description: 'logged through MCP' },
          },
        ],
        'bypassPermissions',
      );
      // The hook gates the MCP call too (an MCP tool asks by default): one request, approved.
      const mcpCall = await waitForPending(admin, 'mcp:gatehouse:log_action');
      await admin.call('decide', { requestId: mcpCall.requestId, decision: 'approve' });
      const run = await running;
      expect(run.code, run.stderr).toBe(0);
      const { sessions } = await admin.call('sessions.list', { agent: 'claude-code' });
      const fresh = sessions.filter((s) => !before.some((b) => b.sessionId === s.sessionId));
      expect(fresh).toHaveLength(1);
      expect(mcpCall.sessionId).toBe(fresh[0]!.sessionId);
      const { transcript } = await admin.call('session.get', { sessionId: fresh[0]!.sessionId });
      const texts = transcript.map((t) => t.text).join('\n');
      expect(texts).toMatch(/git status/);
      expect(texts).toContain('logged through MCP');
    } finally {
      await runCli({ ...d.env, HOME: home }, ['hook', 'claude-code', '--uninstall']);
    }
  });
});
