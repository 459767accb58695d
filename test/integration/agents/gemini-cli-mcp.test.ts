import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiModelServer, type ToolStep } from '../../support/model-server/gemini';
import { installHook, pendingWhileRunning } from '../../support/agent-e2e';
import { runGeminiPrompt } from '../../support/gemini-env';
import { type McpAgentStage, startMcpAgentStage, stopMcpAgentStage } from '../../support/mcp-echo';
import { mcpDecisionTests } from '../../support/mcp-scenario';

/**
 * The real Gemini CLI (0.61.0, pinned in test/agents/package.json) calling a tool of a real
 * stdio MCP server configured under a name with `_` and `-`, with the Gatehouse hook installed
 * by `gatehouse hook gemini --install`: the call reaches Gatehouse as
 * `mcp:<configured server>:<tool>`, taken from the payload's mcp_context, not guessed from
 * `mcp_my_echo-srv_echo_text`.
 */
const SERVER = 'my_echo-srv';
const ACTION = `mcp:${SERVER}:echo_text`;

describe('the real Gemini CLI calling an MCP tool through the Gatehouse hook', () => {
  let s: McpAgentStage<GeminiModelServer>;

  beforeAll(async () => {
    s = await startMcpAgentStage(() => GeminiModelServer.start());
    mkdirSync(join(s.p.home, '.gemini'));
    writeFileSync(
      join(s.p.home, '.gemini', 'settings.json'),
      JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' } },
        mcpServers: { [SERVER]: { command: s.echo.command, args: s.echo.args, env: s.echo.env } },
      }),
    );
    await installHook(s, ['gemini', '--install']);
  });

  afterAll(() => stopMcpAgentStage(s));

  /** `gemini -p` with the model scripted to call echo_text with `text`. */
  function geminiCalls(text: string) {
    const call: ToolStep = { name: `mcp_${SERVER}_echo_text`, input: { text } };
    s.model.script([call]);
    return runGeminiPrompt(s.daemon.env, s.p.home, s.model.url, s.p.project);
  }

  mcpDecisionTests({
    agent: 'gemini',
    agentName: 'Gemini CLI',
    action: ACTION,
    timeout: 120_000,
    admin: () => s.admin,
    echo: () => s.echo,
    calls: geminiCalls,
    toolResult: () => s.model.toolResults()[0]?.text,
    deniedNotice: 'Tool execution blocked',
    checkPending: (pending) =>
      expect(pending.description).toContain(`Call MCP tool echo_text of server ${SERVER}`),
  });

  it("an edited MCP call is what Gemini CLI sends the server: tool_input is the tool's arguments", async () => {
    const running = geminiCalls('the model wrote this');
    const asked = await pendingWhileRunning(s.admin, running, ACTION);
    await s.admin.call('decide', {
      requestId: asked.requestId,
      decision: 'approve',
      edit: { input: { text: 'the person wrote this' } },
    });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(s.echo.calls()).toContain('the person wrote this');
    expect(s.echo.calls()).not.toContain('the model wrote this');
    expect(s.model.toolResults()[0]?.text).toContain('echo: the person wrote this');
  }, 120_000);
});
