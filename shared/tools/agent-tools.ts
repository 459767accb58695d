import { toolAction as claudeCodeToolAction } from './claude-code-tools';
import { codexToolAction } from './codex-tools';
import { copilotToolAction } from './copilot-tools';
import { cursorToolAction } from './cursor-tools';
import { geminiToolAction } from './gemini-tools';
import { opencodeToolAction } from './opencode-tools';
import type { AgentKind } from './agent-kinds';
import type { ShellParser } from './shell-syntax';
import type { McpToolRef, ToolInput, ToolMapping } from './tool-mapping';

/**
 * The adapter layer's first half: which agents Gatehouse maps natively, and one tool table
 * per agent (shared/tools/<agent>-tools.ts). The daemon's `gate` method (`client` is the
 * agent kind) and the hook's offline fallback both map through here, so a tool means the
 * same thing whether Gatehouse is up or down. To add an agent: its kind in agent-kinds.ts, a table built
 * with tool-mapping.ts (shell tools → shellCall, file tools → fileCall with the path, MCP
 * tools → mcpCall), and its adapter in shared/node/hooks/<agent>/ (see shared/node/hooks/relay/).
 */
export { AGENT_KINDS, isAgentKind } from './agent-kinds';
export type { AgentKind } from './agent-kinds';

/** `mcp`: the MCP server and tool when the agent reported them apart from the tool's name. */
export type AgentToolMapper = (
  tool: string,
  input: ToolInput,
  parser: ShellParser,
  mcp?: McpToolRef,
) => ToolMapping;

const MAPPERS: Readonly<Record<AgentKind, AgentToolMapper>> = {
  'claude-code': claudeCodeToolAction,
  codex: codexToolAction,
  gemini: geminiToolAction,
  copilot: copilotToolAction,
  opencode: opencodeToolAction,
  cursor: cursorToolAction,
};

/** Maps one native tool call of `agent` to Gatehouse actions. Pure. */
export function agentToolAction(
  agent: AgentKind,
  tool: string,
  input: ToolInput,
  parser: ShellParser,
  mcp?: McpToolRef,
): ToolMapping {
  return MAPPERS[agent](tool, input, parser, mcp);
}
