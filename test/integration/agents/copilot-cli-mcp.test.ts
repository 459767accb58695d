import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiChatModelServer } from '../../support/model-server/openai-chat';
import { installHook } from '../../support/agent-e2e';
import { copilotEchoMcpArgs, runCopilotPrompt } from '../../support/copilot-env';
import {
  decideMcpCall,
  type McpAgentStage,
  startMcpAgentStage,
  stopMcpAgentStage,
} from '../../support/mcp-echo';
import { mcpDecisionTests } from '../../support/mcp-scenario';

/**
 * The real Copilot CLI (1.0.102, pinned in test/agents/package.json) calling a tool of a real
 * stdio MCP server, with the Gatehouse hook installed by `gatehouse hook copilot --install
 * --project`. Copilot names the tool `<server>-<tool>` and says nothing else of the server:
 * `echo-echo_text` reaches Gatehouse as `mcp:echo:echo_text`, while `my-echo-echo_text`
 * (server `my` or `my-echo`?) is not guessed and asks as `tool:my-echo-echo_text`.
 */
describe('the real Copilot CLI calling an MCP tool through the Gatehouse hook', () => {
  let s: McpAgentStage<OpenAiChatModelServer>;

  beforeAll(async () => {
    s = await startMcpAgentStage(() => OpenAiChatModelServer.start());
    await installHook(s, ['copilot', '--install', '--project', s.p.project]);
  });

  afterAll(() => stopMcpAgentStage(s));

  /** `copilot -p` with the echo server configured as `server` and the model calling its tool. */
  function copilotCalls(server: string, text: string) {
    s.model.script([{ name: `${server}-echo_text`, input: { text } }]);
    return runCopilotPrompt(
      s.daemon.env,
      s.p.home,
      s.model.url,
      s.p.project,
      copilotEchoMcpArgs(server, s.echo),
    );
  }

  mcpDecisionTests({
    agent: 'copilot',
    agentName: 'Copilot CLI',
    action: 'mcp:echo:echo_text',
    approvedTitle: 'echo-echo_text waits for a person as mcp:echo:echo_text and runs once approved',
    timeout: 120_000,
    admin: () => s.admin,
    echo: () => s.echo,
    calls: (text) => copilotCalls('echo', text),
    toolResult: () => s.model.toolResults()[0]?.text,
    deniedNotice: 'Denied by preToolUse hook',
  });

  it('a server named with - is not guessed: a rule for the wrong split does not let the call through', async () => {
    // my-echo-echo_text could be server `my`, tool `echo-echo_text`: a rule allowing that
    // must not apply; the call asks as the whole name.
    const { rule } = await s.admin.call('rules.add', {
      action: 'mcp:my:echo-echo_text',
      tier: 'auto',
    });
    try {
      const { run } = await decideMcpCall(
        s.admin,
        s.echo,
        copilotCalls('my-echo', 'ambiguous'),
        'tool:my-echo-echo_text',
        'ambiguous',
        'deny',
        'which server is that?',
      );
      expect(run.code, run.stderr).toBe(0);
      const [result] = s.model.toolResults();
      expect(result?.text).toContain('which server is that?');
    } finally {
      await s.admin.call('rules.remove', { ruleId: rule.ruleId });
    }
  }, 120_000);
});
