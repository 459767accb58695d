import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { OpenAiChatModelServer } from '../../support/model-server/openai-chat';
import { installHook } from '../../support/agent-e2e';
import { copilotEchoMcpArgs, runCopilotPrompt } from '../../support/copilot-env';
import { type McpAgentStage, startMcpAgentStage, stopMcpAgentStage } from '../../support/mcp-echo';
import { mcpDecisionTests } from '../../support/mcp-scenario';

/**
 * The real Copilot CLI (1.0.102) with the Gatehouse hook on its permissionRequest event
 * (`gatehouse hook copilot --install --project DIR --permission-request`), run with `copilot
 * -p` without `--allow-all-tools`, so Copilot asks the hook about what it would prompt a
 * person for, MCP tools among them. permissionRequest names the tool `<server>/<tool>` with
 * the server's name as configured: `my-echo/echo_text` tells its server apart (preToolUse's
 * `my-echo-echo_text` does not) and reaches Gatehouse as `mcp:my-echo:echo_text`.
 */
describe('the real Copilot CLI asking the Gatehouse permissionRequest hook about an MCP tool', () => {
  let s: McpAgentStage<OpenAiChatModelServer>;

  beforeAll(async () => {
    s = await startMcpAgentStage(() => OpenAiChatModelServer.start());
    const installed = await installHook(s, [
      'copilot',
      '--install',
      '--project',
      s.p.project,
      '--permission-request',
    ]);
    expect(installed.stdout).toMatch(
      /Installed the Gatehouse hooks \(permissionRequest, sessionEnd\)/,
    );
    const written = JSON.parse(
      readFileSync(join(s.p.project, '.github', 'hooks', 'gatehouse.json'), 'utf8'),
    ) as { hooks: Record<string, unknown[]> };
    expect(Object.keys(written.hooks).sort()).toEqual(['permissionRequest', 'sessionEnd']);
  });

  afterAll(() => stopMcpAgentStage(s));

  mcpDecisionTests({
    agent: 'copilot',
    agentName: 'Copilot CLI',
    action: 'mcp:my-echo:echo_text',
    approvedTitle:
      'my-echo/echo_text waits for a person as mcp:my-echo:echo_text and runs once approved',
    timeout: 120_000,
    admin: () => s.admin,
    echo: () => s.echo,
    calls: (text) => {
      s.model.script([{ name: 'my-echo-echo_text', input: { text } }]);
      const mcp = copilotEchoMcpArgs('my-echo', s.echo);
      return runCopilotPrompt(s.daemon.env, s.p.home, s.model.url, s.p.project, mcp, false);
    },
    toolResult: () => s.model.toolResults()[0]?.text,
    checkPending: (pending) =>
      expect(pending.description).toContain('Call MCP tool echo_text of server my-echo'),
  });
});
