import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiChatModelServer } from '../../support/model-server/openai-chat';
import { installHook } from '../../support/agent-e2e';
import {
  decideMcpCall,
  type McpAgentStage,
  startMcpAgentStage,
  stopMcpAgentStage,
} from '../../support/mcp-echo';
import { mcpDecisionTests } from '../../support/mcp-scenario';
import { runOpencode, writeOpencodeConfig } from '../../support/opencode-env';

/** The echo server's name in opencode.json, and the tool's name as OpenCode gives it. */
const SERVER = 'echo';
const TOOL = 'echo_echo_text';

/**
 * The real OpenCode (1.18.33, pinned in test/agents/package.json) calling a tool of a real
 * stdio MCP server configured in opencode.json's `mcp` section, with Gatehouse's plugin
 * installed by `gatehouse hook opencode --install --project`. OpenCode names the tool
 * `<server>_<tool>` and its plugin input says nothing else of the server; `_` is in server
 * and tool names alike, so `echo_echo_text` (server `echo` or `echo_echo`?) is not guessed
 * and asks as `tool:echo_echo_text`.
 */
describe('the real OpenCode calling an MCP tool through the Gatehouse plugin', () => {
  let s: McpAgentStage<OpenAiChatModelServer>;

  beforeAll(async () => {
    s = await startMcpAgentStage(() => OpenAiChatModelServer.start());
    writeOpencodeConfig(s.p.project, s.model.url, [], {
      mcp: {
        [SERVER]: {
          type: 'local',
          command: [s.echo.command, ...s.echo.args],
          environment: s.echo.env,
          enabled: true,
        },
      },
    });
    await installHook(s, ['opencode', '--install', '--project', s.p.project]);
  });

  afterAll(() => stopMcpAgentStage(s));

  /** `opencode run` with the model calling the echo server's tool with `text`. */
  function opencodeCalls(text: string) {
    s.model.script([{ name: TOOL, input: { text } }]);
    return runOpencode(s.daemon.env, s.p.dir, s.p.project);
  }

  mcpDecisionTests({
    agent: 'opencode',
    agentName: 'OpenCode',
    action: `tool:${TOOL}`,
    approvedTitle: `${TOOL} waits for a person as tool:${TOOL} (its server not guessed) and runs once approved`,
    // The first run installs OpenCode's plugin package from npm (or the shared cache).
    timeout: 240_000,
    admin: () => s.admin,
    echo: () => s.echo,
    calls: opencodeCalls,
    toolResult: () => s.model.toolResults()[0]?.text,
    checkPending: (pending) => expect(pending.description).toContain(`Use tool ${TOOL}`),
  });

  it('a rule on a guessed split does not let the call through', async () => {
    // echo_echo_text read as server `echo`, tool `echo_text`: a rule allowing that must
    // not apply, since the server could as well be `echo_echo`.
    const { rule } = await s.admin.call('rules.add', {
      action: `mcp:${SERVER}:echo_text`,
      tier: 'auto',
    });
    try {
      const { run } = await decideMcpCall(
        s.admin,
        s.echo,
        opencodeCalls('guessed'),
        `tool:${TOOL}`,
        'guessed',
        'deny',
        'which server is that?',
      );
      expect(run.code, run.stderr).toBe(0);
      expect(s.model.toolResults()[0]?.text).toContain('which server is that?');
    } finally {
      await s.admin.call('rules.remove', { ruleId: rule.ruleId });
    }
  }, 120_000);
});
