import type { ActionSpec } from './action-spec';
import { rankCandidates } from './action-spec';
import {
  gate,
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

/**
 * The file operations of one `apply_patch` body (`*** Add File: p`, `*** Update File: p`,
 * `*** Delete File: p`, `*** Move to: p`), most restrictive first.
 */
export function patchActions(patch: string): ActionSpec[] {
  const found: ActionSpec[] = [];
  for (const m of patch.matchAll(
    /^\*\*\* (Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm,
  )) {
    const path = (m[2] ?? m[3] ?? '').trim();
    if (!path) continue;
    const action = m[1] === 'Add' ? 'write_file' : m[1] === 'Delete' ? 'delete_files' : 'edit_file';
    found.push({ action: m[3] ? 'write_file' : action, paths: [path] });
  }
  return found.length ? rankCandidates(found) : [{ action: 'edit_file' }];
}

const patchCall = (input: ToolInput): ToolMapping => {
  const patch = str(input, 'command', 'patch', 'input') ?? '';
  const candidates = patchActions(patch);
  const paths = candidates.flatMap((c) => c.paths ?? []);
  return gate(candidates, `Apply a patch to ${paths.length ? paths.join(', ') : 'files'}`);
};

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
