import {
  commandCall,
  fetchCall,
  internalTools,
  fileCall,
  globCall,
  inDirectory,
  mapThroughTable,
  searchCall,
  toolSearchWalk,
  str,
  type McpNameSplit,
  type ToolInput,
  type ToolMapping,
  type ToolTable,
} from './tool-mapping';
import type { ShellParser } from './shell-syntax';
import { patchCall } from './patch-envelope';

/**
 * OpenCode's tools, names and argument fields as its `tool.execute.before` plugin hook sees
 * them (checked against the tool declarations OpenCode 1.18.33 sends the model):
 * `bash{command, timeout, workdir}`, `read{filePath}`, `write{filePath, content}`,
 * `edit{filePath, oldString, newString}`, `glob{pattern, path}`, `grep{pattern, path,
 * include}`, `webfetch{url}`; `skill`, `task` (a subagent whose own calls come through the
 * plugin again), `todowrite` and `question` only touch OpenCode's own state. A GPT model is
 * offered `apply_patch{patchText}` in place of edit and write.
 */
export const OPENCODE_TOOLS: ToolTable = {
  // The command runs in `workdir` resolved against the session's directory (1.18.33's bash
  // tool; one outside the project asks OpenCode's own external_directory permission), so it
  // is judged there.
  bash: (input, parser) => inDirectory(commandCall(input, parser), str(input, 'workdir')),
  read: (input) => fileCall('read_file', str(input, 'filePath', 'file_path', 'path'), 'Read'),
  write: (input) => fileCall('write_file', str(input, 'filePath', 'file_path', 'path'), 'Write'),
  edit: (input) => fileCall('edit_file', str(input, 'filePath', 'file_path', 'path'), 'Edit'),
  list: (input) => fileCall('list_files', str(input, 'path'), 'List'),
  // rg --hidden, printing every matching line; `include` is its file glob.
  grep: (input) =>
    searchCall(
      str(input, 'pattern') ?? '',
      str(input, 'path'),
      toolSearchWalk(input, { globKeys: ['include'], namesByDefault: false }),
    ),
  glob: (input) => globCall(str(input, 'pattern') ?? '', str(input, 'path')),
  webfetch: (input) => fetchCall(str(input, 'url')),
  multiedit: (input) => fileCall('edit_file', str(input, 'filePath', 'file_path', 'path'), 'Edit'),
  patch: (input) => fileCall('edit_file', str(input, 'filePath', 'file_path', 'path'), 'Patch'),
  // Offered instead of edit and write to GPT models: `apply_patch{patchText}`, the envelope
  // Codex uses, which OpenCode reads its own way (patch-envelope.ts).
  apply_patch: patchCall,
  ...internalTools(['todowrite', 'todoread', 'task', 'skill', 'question']),
};

/**
 * OpenCode (1.18.33, checked with a real stdio MCP server) names an MCP tool
 * `<server>_<tool>`, each made safe (anything but letters, digits, `_` and `-` becomes `_`:
 * server `a.b` → `a_b_echo_text`), and its plugin input says nothing else about the server
 * (`tool`, `sessionID`, `callID`). `_` is common in both names (`my_echo_echo_text` is server
 * `my`, `my_echo` or `my_echo_echo`), so no name tells its server: every name not in the
 * table, MCP tool or not, asks as `tool:<name>`. Nothing is read as `mcp__server__tool`
 * either: OpenCode never names a tool that way, and a server `mcp` with a tool
 * `_github__create` would read as server `github`.
 */
const NO_MCP_SPLIT: McpNameSplit = () => undefined;

export const opencodeToolAction = (
  tool: string,
  input: ToolInput,
  parser: ShellParser,
): ToolMapping => mapThroughTable(OPENCODE_TOOLS, tool, input, parser, NO_MCP_SPLIT);
