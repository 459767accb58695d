import {
  fetchCall,
  fileCall,
  globCall,
  mapThroughTable,
  searchCall,
  shellCall,
  str,
  INTERNAL,
  type ToolInput,
  type ToolMapping,
  type ToolTable,
} from './tool-mapping';
import type { ShellParser } from './shell-syntax';

/**
 * OpenCode's tools (names as its `tool.execute.before` plugin hook sees them). A first table
 * from the tool list in the issue; the OpenCode adapter owns and refines it.
 */
export const OPENCODE_TOOLS: ToolTable = {
  bash: (input, parser) =>
    shellCall(str(input, 'command') ?? '', parser, str(input, 'description')),
  read: (input) => fileCall('read_file', str(input, 'filePath', 'file_path', 'path'), 'Read'),
  write: (input) => fileCall('write_file', str(input, 'filePath', 'file_path', 'path'), 'Write'),
  edit: (input) => fileCall('edit_file', str(input, 'filePath', 'file_path', 'path'), 'Edit'),
  list: (input) => fileCall('list_files', str(input, 'path'), 'List'),
  grep: (input) => searchCall(str(input, 'pattern') ?? '', str(input, 'path')),
  glob: (input) => globCall(str(input, 'pattern') ?? '', str(input, 'path')),
  webfetch: (input) => fetchCall(str(input, 'url')),
  todowrite: () => INTERNAL,
  todoread: () => INTERNAL,
  task: () => INTERNAL,
};

/** OpenCode names MCP tools `server_tool`, which cannot be split reliably: they stay `tool:`. */
export const opencodeToolAction = (
  tool: string,
  input: ToolInput,
  parser: ShellParser,
): ToolMapping => mapThroughTable(OPENCODE_TOOLS, tool, input, parser, /^mcp__(.+?)__(.+)$/);
