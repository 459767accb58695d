/**
 * The agent session an MCP server runs in, from what the agent puts in its environment, so
 * that the hook and the MCP server of one agent session land in one Gatehouse session (the
 * same `agent` and `sessionKey` as the agent's hook: see shared/node/hooks/relay/relay.ts).
 *
 * Found by running the pinned CLIs here:
 * - Claude Code 2.1.330 starts MCP servers with `CLAUDE_CODE_SESSION_ID`, the `session_id` of
 *   its hook payloads.
 * - Gemini CLI 0.61.0 sets `GEMINI_SESSION_ID` for hook commands; a server started with it
 *   (a hook-launched one, or a wrapper that passes it on) joins the hook's session.
 * - Codex 0.169, Copilot CLI 1.0.102 and OpenCode 1.18.33 were not seen to pass a session id to
 *   MCP servers; there `GATEHOUSE_SESSION_KEY` (set by the person) is the way.
 */
const AGENT_SESSION_VARIABLES: readonly { variable: string; agent: string }[] = [
  { variable: 'CLAUDE_CODE_SESSION_ID', agent: 'claude-code' },
  { variable: 'GEMINI_SESSION_ID', agent: 'gemini' },
];

export interface AgentSession {
  /** The agent name its hook uses (the hook's default; GATEHOUSE_HOOK_AGENT overrides both). */
  agent: string;
  sessionKey: string;
  /** The variable it came from, for the start line. */
  variable: string;
}

/** The agent session named by the environment, or undefined when none is. */
export function agentSessionFrom(env: NodeJS.ProcessEnv): AgentSession | undefined {
  for (const { variable, agent } of AGENT_SESSION_VARIABLES) {
    const id = env[variable]?.trim();
    if (id)
      return {
        agent: env.GATEHOUSE_HOOK_AGENT?.trim().slice(0, 64) || agent,
        sessionKey: id.slice(0, 256),
        variable,
      };
  }
  return undefined;
}
