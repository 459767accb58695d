import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponsesModelServer } from '../../support/model-server/openai-responses';
import { installHook, pendingWhileRunning } from '../../support/agent-e2e';
import { codexHomeFor, runCodexExec } from '../../support/codex-env';
import { type McpAgentStage, startMcpAgentStage, stopMcpAgentStage } from '../../support/mcp-echo';
import { mcpDecisionTests } from '../../support/mcp-scenario';

/**
 * The real Codex CLI (0.169.0, pinned in test/agents/package.json) calling a tool of a real
 * stdio MCP server configured as `my_echo-srv`, with the Gatehouse hook installed by
 * `gatehouse hook codex --install`. Codex declares the server's tools in the namespace
 * `mcp__my_echo_srv` (its name made safe) and names the call `mcp__my_echo_srv__echo_text`
 * in its hook: it reaches Gatehouse as `mcp:my_echo_srv:echo_text`.
 */
const ACTION = 'mcp:my_echo_srv:echo_text';

describe('the real Codex CLI calling an MCP tool through the Gatehouse hook', () => {
  let s: McpAgentStage<ResponsesModelServer>;
  let codexHome: string;

  beforeAll(async () => {
    s = await startMcpAgentStage(() => ResponsesModelServer.start());
    codexHome = codexHomeFor(s.p.home, s.model.url);
    appendFileSync(
      join(codexHome, 'config.toml'),
      [
        '[mcp_servers."my_echo-srv"]',
        `command = ${JSON.stringify(s.echo.command)}`,
        `args = ${JSON.stringify(s.echo.args)}`,
        `env = { ECHO_MCP_LOG = ${JSON.stringify(s.echo.log)} }`,
        // Codex gives a server 10 s to start by default; node loading the MCP SDK on two
        // loaded cores of a slow machine took longer, and Codex then ran without the tool.
        'startup_timeout_sec = 60',
        // Without it `codex exec` sends its first model request without waiting for the
        // server's tools: a server 4 s slow to start made Codex answer the call "unsupported
        // call: mcp__my_echo_srvecho_text", as a full CI run on a loaded machine saw.
        'required = true',
        '',
      ].join('\n'),
    );
    await installHook(s, ['codex', '--install'], { CODEX_HOME: codexHome });
  });

  afterAll(() => stopMcpAgentStage(s));

  /** `codex exec` with the model calling echo_text with `text`. */
  function codexCalls(text: string) {
    s.model.script([{ name: 'echo_text', namespace: 'mcp__my_echo_srv', arguments: { text } }]);
    return runCodexExec(s.daemon.env, s.p.home, codexHome, s.p.project);
  }

  mcpDecisionTests({
    agent: 'codex',
    agentName: 'Codex',
    action: ACTION,
    admin: () => s.admin,
    echo: () => s.echo,
    calls: codexCalls,
    toolResult: () => s.model.outputs()[0]?.output,
  });

  it("an edited MCP call is what Codex sends the server: updatedInput is the tool's arguments", async () => {
    const running = codexCalls('the model wrote this');
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
    expect(s.model.outputs()[0]?.output).toContain('echo: the person wrote this');
  }, 120_000);
});
