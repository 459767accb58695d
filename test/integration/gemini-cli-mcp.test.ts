import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import { GeminiModelServer, type ToolStep } from '../support/model-server/gemini';
import type { TestDaemon } from '../support/daemon';
import {
  installHook,
  type PushProject,
  startAgentStage,
  stopAgentStage,
} from '../support/agent-e2e';
import { runGeminiPrompt } from '../support/gemini-env';
import { EchoMcpServer } from '../support/mcp-echo';
import { mcpDecisionTests } from '../support/mcp-scenario';

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
  let d: TestDaemon;
  let admin: AdminClient;
  let model: GeminiModelServer;
  let p: PushProject;
  let echo: EchoMcpServer;

  beforeAll(async () => {
    [d, model, p] = await startAgentStage(() => GeminiModelServer.start());
    admin = await d.admin();
    echo = new EchoMcpServer(join(p.dir, 'echo-mcp.log'));
    mkdirSync(join(p.home, '.gemini'));
    writeFileSync(
      join(p.home, '.gemini', 'settings.json'),
      JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' } },
        mcpServers: { [SERVER]: { command: echo.command, args: echo.args, env: echo.env } },
      }),
    );
    await installHook(d, p, ['gemini', '--install']);
  });

  afterAll(() => stopAgentStage(admin, model, d, p));

  /** `gemini -p` with the model scripted to call echo_text with `text`. */
  function geminiCalls(text: string) {
    const call: ToolStep = { name: `mcp_${SERVER}_echo_text`, input: { text } };
    model.script([call]);
    return runGeminiPrompt(d.env, p.home, model.url, p.project);
  }

  mcpDecisionTests({
    agent: 'gemini',
    agentName: 'Gemini CLI',
    action: ACTION,
    timeout: 120_000,
    admin: () => admin,
    echo: () => echo,
    calls: geminiCalls,
    toolResult: () => model.toolResults()[0]?.text,
    deniedNotice: 'Tool execution blocked',
    checkPending: (pending) =>
      expect(pending.description).toContain(`Call MCP tool echo_text of server ${SERVER}`),
  });
});
