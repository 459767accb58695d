import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import { ResponsesModelServer } from '../support/model-server/openai-responses';
import type { TestDaemon } from '../support/daemon';
import {
  installHook,
  type PushProject,
  startAgentStage,
  stopAgentStage,
} from '../support/agent-e2e';
import { codexHomeFor, runCodexExec } from '../support/codex-env';
import { EchoMcpServer } from '../support/mcp-echo';
import { mcpDecisionTests } from '../support/mcp-scenario';

/**
 * The real Codex CLI (0.169.0, pinned in test/agents/package.json) calling a tool of a real
 * stdio MCP server configured as `my_echo-srv`, with the Gatehouse hook installed by
 * `gatehouse hook codex --install`. Codex declares the server's tools in the namespace
 * `mcp__my_echo_srv` (its name made safe) and names the call `mcp__my_echo_srv__echo_text`
 * in its hook: it reaches Gatehouse as `mcp:my_echo_srv:echo_text`.
 */
const ACTION = 'mcp:my_echo_srv:echo_text';

describe('the real Codex CLI calling an MCP tool through the Gatehouse hook', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let model: ResponsesModelServer;
  let p: PushProject;
  let echo: EchoMcpServer;
  let codexHome: string;

  beforeAll(async () => {
    [d, model, p] = await startAgentStage(() => ResponsesModelServer.start());
    admin = await d.admin();
    echo = new EchoMcpServer(join(p.dir, 'echo-mcp.log'));
    codexHome = codexHomeFor(p.home, model.url);
    appendFileSync(
      join(codexHome, 'config.toml'),
      [
        '[mcp_servers."my_echo-srv"]',
        `command = ${JSON.stringify(echo.command)}`,
        `args = ${JSON.stringify(echo.args)}`,
        `env = { ECHO_MCP_LOG = ${JSON.stringify(echo.log)} }`,
        '',
      ].join('\n'),
    );
    await installHook(d, p, ['codex', '--install'], { CODEX_HOME: codexHome });
  });

  afterAll(() => stopAgentStage(admin, model, d, p));

  /** `codex exec` with the model calling echo_text with `text`. */
  function codexCalls(text: string) {
    model.script([{ name: 'echo_text', namespace: 'mcp__my_echo_srv', arguments: { text } }]);
    return runCodexExec(d.env, p.home, codexHome, p.project);
  }

  mcpDecisionTests({
    agent: 'codex',
    agentName: 'Codex',
    action: ACTION,
    admin: () => admin,
    echo: () => echo,
    calls: codexCalls,
    toolResult: () => model.outputs()[0]?.output,
  });
});
