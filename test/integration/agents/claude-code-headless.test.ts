import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicModelServer, type ToolStep } from '../../support/model-server/anthropic';
import { claudeRunResult, runClaude } from '../../support/claude-cli';
import { CLI, runCli } from '../../support/daemon';
import {
  type AgentStage,
  closeAgentStage,
  decidePush,
  installHook,
  openAgentStage,
  runWhilePaused,
} from '../../support/agent-e2e';
import { waitForPending } from '../../support/events';

/**
 * Claude Code headless: the real `claude -p --permission-prompt-tool
 * mcp__gatehouse__permission_prompt` with `gatehouse mcp` as its MCP server, against a
 * scripted model server and a real daemon. No hook is installed in the first part: the
 * permission prompt alone gates the unattended run.
 */
describe('claude -p --permission-prompt-tool mcp__gatehouse__permission_prompt (real Claude Code)', () => {
  let s: AgentStage<AnthropicModelServer>;
  let mcpConfig: string;

  beforeAll(async () => {
    s = await openAgentStage(() => AnthropicModelServer.start());
    mcpConfig = join(s.p.dir, 'mcp.json');
    writeFileSync(
      mcpConfig,
      JSON.stringify({
        mcpServers: { gatehouse: { command: process.execPath, args: [CLI, 'mcp'] } },
      }),
    );
  });

  afterAll(() => closeAgentStage(s));

  const headless = (steps: ToolStep[], mode = 'default') => {
    s.model.script(steps);
    return runClaude({
      cwd: s.p.project,
      home: s.p.home,
      modelUrl: s.model.url,
      env: s.daemon.env,
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
    const running = headless([push]);
    const pending = await waitForPending(s.admin, 'git_push');
    expect(pending).toMatchObject({ agent: 'claude-code', target: 'origin main' });
    const run = await decidePush(s.admin, s.p, running, 'approve');
    expect(run.code, run.stderr).toBe(0);
    expect(s.model.toolResults()[0]).toMatchObject({ isError: false });
    console.log(`claude -p permission prompt: approved push in ${run.seconds.toFixed(1)} s`);
  });

  it('a denied git push never lands, and Claude Code is told why', async () => {
    s.p.commit('second');
    const run = await decidePush(s.admin, s.p, headless([push]), 'deny', 'not before the release');
    expect(run.code, run.stderr).toBe(0);
    const [result] = s.model.toolResults();
    expect(result?.isError).toBe(true);
    expect(result?.text).toContain('not before the release');
  });

  it('with Gatehouse down the push is denied, never run', async () => {
    const before = s.p.remoteHead();
    s.p.commit('third');
    s.model.script([push]);
    const run = await runClaude({
      cwd: s.p.project,
      home: s.p.home,
      modelUrl: s.model.url,
      env: {
        ...s.daemon.env,
        GATEHOUSE_SOCKET: join(s.p.dir, 'nowhere', 'agent.sock'),
        GATEHOUSE_HOME: join(s.p.dir, 'nowhere'),
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
    expect(s.p.remoteHead()).toBe(before);
    const [result] = s.model.toolResults();
    expect(result?.isError).toBe(true);
    expect(result?.text).toMatch(/not reachable/);
  });

  it('a paused agent is stopped: the run ends at the first prompt (interrupt), nothing is filed', async () => {
    const run = await runWhilePaused(s.admin, s.p, 'claude-code', () => headless([push, push]));
    const result = claudeRunResult(run);
    // Claude Code ended the run on the prompt's `interrupt`: no second tool call.
    expect(result.terminal_reason).toBe('aborted_tools');
    expect(result.permission_denials).toHaveLength(1);
  });

  it('a hook call and an MCP call of one Claude Code session land in one Gatehouse session', async () => {
    await installHook(s, ['claude-code', '--install']);
    try {
      const before = (await s.admin.call('sessions.list', { agent: 'claude-code' })).sessions;
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
      const mcpCall = await waitForPending(s.admin, 'mcp:gatehouse:log_action');
      await s.admin.call('decide', { requestId: mcpCall.requestId, decision: 'approve' });
      const run = await running;
      expect(run.code, run.stderr).toBe(0);
      const { sessions } = await s.admin.call('sessions.list', { agent: 'claude-code' });
      const fresh = sessions.filter((s) => !before.some((b) => b.sessionId === s.sessionId));
      expect(fresh).toHaveLength(1);
      expect(mcpCall.sessionId).toBe(fresh[0]!.sessionId);
      const { transcript } = await s.admin.call('session.get', { sessionId: fresh[0]!.sessionId });
      const texts = transcript.map((t) => t.text).join('\n');
      expect(texts).toMatch(/git status/);
      expect(texts).toContain('logged through MCP');
    } finally {
      await runCli({ ...s.daemon.env, HOME: s.p.home }, ['hook', 'claude-code', '--uninstall']);
    }
  });
});
