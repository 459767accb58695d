import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import { OpenAiChatModelServer } from '../support/model-server/openai-chat';
import type { TestDaemon } from '../support/daemon';
import {
  installHook,
  type PushProject,
  startAgentStage,
  stopAgentStage,
} from '../support/agent-e2e';
import { runCopilotPrompt } from '../support/copilot-env';
import { decideMcpCall, EchoMcpServer } from '../support/mcp-echo';
import { mcpDecisionTests } from '../support/mcp-scenario';

/**
 * The real Copilot CLI (1.0.102, pinned in test/agents/package.json) calling a tool of a real
 * stdio MCP server, with the Gatehouse hook installed by `gatehouse hook copilot --install
 * --project`. Copilot names the tool `<server>-<tool>` and says nothing else of the server:
 * `echo-echo_text` reaches Gatehouse as `mcp:echo:echo_text`, while `my-echo-echo_text`
 * (server `my` or `my-echo`?) is not guessed and asks as `tool:my-echo-echo_text`.
 */
describe('the real Copilot CLI calling an MCP tool through the Gatehouse hook', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let model: OpenAiChatModelServer;
  let p: PushProject;
  let echo: EchoMcpServer;

  beforeAll(async () => {
    [d, model, p] = await startAgentStage(() => OpenAiChatModelServer.start());
    admin = await d.admin();
    echo = new EchoMcpServer(join(p.dir, 'echo-mcp.log'));
    await installHook(d, p, ['copilot', '--install', '--project', p.project]);
  });

  afterAll(() => stopAgentStage(admin, model, d, p));

  /** `copilot -p` with the echo server configured as `server` and the model calling its tool. */
  function copilotCalls(server: string, text: string) {
    model.script([{ name: `${server}-echo_text`, input: { text } }]);
    const mcpConfig = {
      mcpServers: {
        [server]: {
          type: 'local',
          command: echo.command,
          args: echo.args,
          env: echo.env,
          tools: ['*'],
        },
      },
    };
    return runCopilotPrompt(d.env, p.home, model.url, p.project, [
      '--additional-mcp-config',
      JSON.stringify(mcpConfig),
    ]);
  }

  mcpDecisionTests({
    agent: 'copilot',
    agentName: 'Copilot CLI',
    action: 'mcp:echo:echo_text',
    approvedTitle: 'echo-echo_text waits for a person as mcp:echo:echo_text and runs once approved',
    timeout: 120_000,
    admin: () => admin,
    echo: () => echo,
    calls: (text) => copilotCalls('echo', text),
    toolResult: () => model.toolResults()[0]?.text,
    deniedNotice: 'Denied by preToolUse hook',
  });

  it('a server named with - is not guessed: a rule for the wrong split does not let the call through', async () => {
    // my-echo-echo_text could be server `my`, tool `echo-echo_text`: a rule allowing that
    // must not apply; the call asks as the whole name.
    const { rule } = await admin.call('rules.add', {
      action: 'mcp:my:echo-echo_text',
      tier: 'auto',
    });
    try {
      const { run } = await decideMcpCall(
        admin,
        echo,
        copilotCalls('my-echo', 'ambiguous'),
        'tool:my-echo-echo_text',
        'ambiguous',
        'deny',
        'which server is that?',
      );
      expect(run.code, run.stderr).toBe(0);
      const [result] = model.toolResults();
      expect(result?.text).toContain('which server is that?');
    } finally {
      await admin.call('rules.remove', { ruleId: rule.ruleId });
    }
  }, 120_000);
});
