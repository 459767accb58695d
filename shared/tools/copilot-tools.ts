import { asShellBackground, BACKGROUND_FIELDS } from './sandbox-escape';
import {
  commandCall,
  fetchCall,
  internalTools,
  fileCall,
  globCall,
  mapThroughTable,
  searchCall,
  toolSearchWalk,
  shellCall,
  splitAtSoleSeparator,
  pathsIn,
  str,
  type McpNameSplit,
  type ToolInput,
  type ToolMapping,
  type ToolTable,
} from './tool-mapping';
import type { ShellParser } from './shell-syntax';
import { COPILOT_INTERNAL_TOOLS } from './copilot-internal';
import { patchCall } from './patch-envelope';

export { COPILOT_INTERNAL_TOOLS } from './copilot-internal';

/** The paths a tool names: `path`, `file_path` and `paths` (Copilot's grep and glob take a list, all searched). */
const pathsOf = (input: ToolInput): string[] => pathsIn(input, 'paths', 'path', 'file_path');

const copilotSearch = (input: ToolInput): ToolMapping =>
  searchCall(
    str(input, 'pattern') ?? '',
    pathsOf(input),
    toolSearchWalk(input, { globKeys: ['glob'], namesByDefault: true }),
  );

/**
 * GitHub Copilot CLI's tools, names and input fields as its preToolUse hook sees them
 * (`toolName`, `toolArgs`; checked against Copilot CLI 1.0.102's tool declarations and hook
 * payloads): `bash{command, description, mode, detach}`, `write_bash{shellId, input}` (types
 * into a running shell: a command too), `view{path}`, `create{path, file_text}`,
 * `edit{path, old_str, new_str}`, `grep{pattern, paths}`, `glob{pattern, paths}`,
 * `web_fetch{url}`. Some models get `rg` (grep), `str_replace_editor{command, path, …}` or
 * `apply_patch` (a patch as its whole argument) in their place.
 */
export const COPILOT_TOOLS: ToolTable = {
  // `detach` and an async `mode` are judged as the `&` they stand for (sandbox-escape.ts).
  bash: (input, parser) => commandCall(asShellBackground(input, BACKGROUND_FIELDS.copilot), parser),
  shell: (input, parser) =>
    commandCall(asShellBackground(input, BACKGROUND_FIELDS.copilot), parser),
  write_bash: (input, parser) => shellCall(str(input, 'input') ?? '', parser, undefined, 'Type'),
  view: (input) => fileCall('read_file', pathsOf(input), 'Read'),
  create: (input) => fileCall('write_file', pathsOf(input), 'Write'),
  edit: (input) => fileCall('edit_file', pathsOf(input), 'Edit'),
  str_replace: (input) => fileCall('edit_file', pathsOf(input), 'Edit'),
  // rg --hidden; it prints names unless `output_mode: content` (calibrated in
  // copilot-grep-secrets.test.ts).
  grep: (input) => copilotSearch(input),
  // The same search under another name, offered to some models.
  rg: (input) => copilotSearch(input),
  // One tool for viewing and changing files, offered to some models: what it does is `command`.
  str_replace_editor: (input) => {
    const command = str(input, 'command');
    return command === 'view'
      ? fileCall('read_file', pathsOf(input), 'Read')
      : command === 'create'
        ? fileCall('write_file', pathsOf(input), 'Write')
        : fileCall('edit_file', pathsOf(input), 'Edit');
  },
  // Offered to GPT models: Codex's envelope, as the string `input` (or `patch`).
  apply_patch: patchCall,
  glob: (input) => globCall(str(input, 'pattern') ?? '', pathsOf(input)),
  web_fetch: (input) => fetchCall(str(input, 'url')),
  ...internalTools(COPILOT_INTERNAL_TOOLS),
};

/**
 * Copilot CLI (1.0.102, checked with a real stdio MCP server) names an MCP tool
 * `<server>-<tool>` in preToolUse, with the server's name made safe (`.`, `:`, `/` and spaces
 * become `-`, non-ASCII becomes punycode: `a.b` → `a-b`, `é` → `xn--9ca`; `_` stays), and
 * `<server>/<tool>` with the server's name as configured in permissionRequest. A server or
 * tool name may hold `-` (`my-srv-echo` is server `my` or `my-srv`), so only a name with
 * exactly one separator tells its server; any other such name asks as `tool:<name>`. Copilot
 * reports nothing else about the server.
 */
const COPILOT_MCP_NAME: McpNameSplit = (name) => {
  if (name.includes('/')) return splitAtSoleSeparator(name, '/');
  if (name.includes('-')) return splitAtSoleSeparator(name, '-');
  return undefined;
};

export const copilotToolAction = (
  tool: string,
  input: ToolInput,
  parser: ShellParser,
): ToolMapping => mapThroughTable(COPILOT_TOOLS, tool, input, parser, COPILOT_MCP_NAME);
