import {
  commandCall,
  fetchCall,
  internalTools,
  fileCall,
  globCall,
  mapThroughTable,
  searchCall,
  str,
  type ToolInput,
  type ToolMapping,
  type ToolTable,
} from './tool-mapping';
import type { ShellParser } from './shell-syntax';

/**
 * OpenCode's tools, names and argument fields as its `tool.execute.before` plugin hook sees
 * them (checked against the tool declarations OpenCode 1.18.33 sends the model):
 * `bash{command, timeout, workdir}`, `read{filePath}`, `write{filePath, content}`,
 * `edit{filePath, oldString, newString}`, `glob{pattern, path}`, `grep{pattern, path,
 * include}`, `webfetch{url}`; `skill`, `task` (a subagent whose own calls come through the
 * plugin again), `todowrite` and `question` only touch OpenCode's own state.
 */
export const OPENCODE_TOOLS: ToolTable = {
  bash: commandCall,
  read: (input) => fileCall('read_file', str(input, 'filePath', 'file_path', 'path'), 'Read'),
  write: (input) => fileCall('write_file', str(input, 'filePath', 'file_path', 'path'), 'Write'),
  edit: (input) => fileCall('edit_file', str(input, 'filePath', 'file_path', 'path'), 'Edit'),
  list: (input) => fileCall('list_files', str(input, 'path'), 'List'),
  grep: (input) => searchCall(str(input, 'pattern') ?? '', str(input, 'path')),
  glob: (input) => globCall(str(input, 'pattern') ?? '', str(input, 'path')),
  webfetch: (input) => fetchCall(str(input, 'url')),
  multiedit: (input) => fileCall('edit_file', str(input, 'filePath', 'file_path', 'path'), 'Edit'),
  patch: (input) => fileCall('edit_file', str(input, 'filePath', 'file_path', 'path'), 'Patch'),
  ...internalTools(['todowrite', 'todoread', 'task', 'skill', 'question']),
};

/** OpenCode names MCP tools `server_tool`, which cannot be split reliably: they stay `tool:`. */
export const opencodeToolAction = (
  tool: string,
  input: ToolInput,
  parser: ShellParser,
): ToolMapping => mapThroughTable(OPENCODE_TOOLS, tool, input, parser, /^mcp__(.+?)__(.+)$/);
