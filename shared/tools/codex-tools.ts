import {
  mapThroughTable,
  shellCall,
  splitAtSoleSeparator,
  str,
  type McpNameSplit,
  type ToolInput,
  type ToolMapping,
  type ToolTable,
} from './tool-mapping';
import type { ShellParser } from './shell-syntax';
import { patchCall } from './patch-envelope';

/**
 * Codex CLI (0.169) names its shell tool `Bash` in hooks (`tool_input.command`, a command
 * line; Codex also reads files through it) and its file edits `apply_patch`.
 */
export const CODEX_TOOLS: ToolTable = {
  // PermissionRequest carries the model's justification as `description`.
  Bash: (input, parser) =>
    shellCall(str(input, 'command', 'cmd') ?? '', parser, str(input, 'description')),
  exec_command: (input, parser) =>
    shellCall(str(input, 'cmd', 'command') ?? '', parser, str(input, 'justification')),
  apply_patch: patchCall,
};

/**
 * Codex CLI (0.169.0, checked with a real stdio MCP server) names an MCP tool
 * `mcp__<server>__<tool>`, with the server's name made safe (`-` and `.` become `_`:
 * `my_echo-srv` → `my_echo_srv`; `__` stays) and nothing else about the server in the
 * payload. A server named `a__b` makes `mcp__a__b__x` (server `a` or `a__b`?), so only a name
 * with exactly one `__` after the prefix tells its server; any other asks as `tool:<name>`.
 */
const CODEX_MCP_NAME: McpNameSplit = (name) =>
  name.startsWith('mcp__') ? splitAtSoleSeparator(name.slice('mcp__'.length), '__') : undefined;

export const codexToolAction = (tool: string, input: ToolInput, parser: ShellParser): ToolMapping =>
  mapThroughTable(CODEX_TOOLS, tool, input, parser, CODEX_MCP_NAME);
