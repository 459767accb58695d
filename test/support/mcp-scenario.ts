import { expect, it } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import type { RequestRecord } from '../../shared/domain';
import type { AgentRun } from './agent-e2e';
import { decideMcpCall, type EchoMcpServer, runsUnderAutoRule } from './mcp-echo';

/**
 * One agent CLI calling `echo_text` of the echo MCP server through the Gatehouse hook: what
 * the three shared scenarios (approve, deny, a rule at auto) need of it. Getters, because the
 * daemon, the admin client and the server start in the test file's beforeAll.
 */
export interface McpCallScenario {
  /** The agent id Gatehouse files the call under, and the label of the timing lines. */
  agent: 'codex' | 'gemini' | 'copilot' | 'opencode';
  /** How the denied test names the agent ("Codex", "Gemini CLI"). */
  agentName: string;
  /** The action the call reaches Gatehouse as. */
  action: string;
  /** Title of the approve test, when it names the action more exactly than the default. */
  approvedTitle?: string;
  /** Per-test timeout, when the agent needs more than the configured default. */
  timeout?: number;
  admin: () => AdminClient;
  echo: () => EchoMcpServer;
  /** Runs the agent with its model scripted to call echo_text with `text`. */
  calls: (text: string) => Promise<AgentRun>;
  /** What the model was given back for the (first) tool call. */
  toolResult: () => string | undefined;
  /** What the agent says on its own when a hook denies a call, besides the reason. */
  deniedNotice?: string;
  /** Agent-specific checks of the pending request of an approved call. */
  checkPending?: (pending: RequestRecord) => void;
}

/**
 * The approve, deny and auto-rule tests of an agent's MCP call: it waits for a person as the
 * scenario's action and runs once approved; denied, it never reaches the server and the agent
 * is told why; with a rule on exactly that action at auto it runs without a person.
 */
export function mcpDecisionTests(s: McpCallScenario): void {
  const approvedTitle =
    s.approvedTitle ?? 'the call waits for a person as mcp:<server>:<tool> and runs once approved';

  it(
    approvedTitle,
    async () => {
      const { run, pending } = await decideMcpCall(
        s.admin(),
        s.echo(),
        s.calls('approved'),
        s.action,
        'approved',
        'approve',
      );
      expect(run.code, run.stderr).toBe(0);
      expect(pending.agent).toBe(s.agent);
      s.checkPending?.(pending);
      expect(s.toolResult()).toContain('echo: approved');
      console.log(`${s.agent} mcp e2e: approved call in ${run.seconds.toFixed(1)} s`);
    },
    s.timeout,
  );

  it(
    `a denied call never reaches the MCP server, and ${s.agentName} is told why`,
    async () => {
      const { run } = await decideMcpCall(
        s.admin(),
        s.echo(),
        s.calls('denied'),
        s.action,
        'denied',
        'deny',
        'no echoes today',
      );
      expect(run.code, run.stderr).toBe(0);
      const result = s.toolResult();
      if (s.deniedNotice) expect(result).toContain(s.deniedNotice);
      expect(result).toContain('no echoes today');
      console.log(`${s.agent} mcp e2e: denied call in ${run.seconds.toFixed(1)} s`);
    },
    s.timeout,
  );

  it(
    'a rule on exactly that action applies: with it at auto the call runs without a person',
    async () => {
      await runsUnderAutoRule(s.admin(), s.echo(), s.action, 'by rule', () => s.calls('by rule'));
    },
    s.timeout,
  );
}
