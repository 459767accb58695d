import {
  fetchCall,
  fileCall,
  globCall,
  mapThroughTable,
  mcpCall,
  searchCall,
  toolSearchWalk,
  shellCall,
  pathsIn,
  str,
  type ToolInput,
  type ToolMapping,
  type ToolTable,
} from './tool-mapping';
import type { ShellParser } from './shell-syntax';

/**
 * Cursor's hook events, each turned into one tool call: `beforeShellExecution` is the tool
 * `Shell` ({command}), `beforeReadFile` is `Read` ({file_path}), `beforeMCPExecution` is
 * `MCP:<server>:<tool>`; `preToolUse` carries Cursor's own tool names (Shell, Read, Write,
 * Edit, StrReplace, Delete, Grep, Glob, WebFetch, MCP:…) as the documentation lists them.
 */
export const CURSOR_TOOLS: ToolTable = {
  Shell: (input, parser) => shellCall(str(input, 'command') ?? '', parser),
  Terminal: (input, parser) => shellCall(str(input, 'command') ?? '', parser),
  Read: (input) =>
    fileCall('read_file', pathsIn(input, 'file_path', 'path', 'target_file'), 'Read'),
  Write: (input) =>
    fileCall('write_file', pathsIn(input, 'file_path', 'path', 'target_file'), 'Write'),
  Edit: (input) =>
    fileCall('edit_file', pathsIn(input, 'file_path', 'path', 'target_file'), 'Edit'),
  StrReplace: (input) => fileCall('edit_file', pathsIn(input, 'file_path', 'path'), 'Edit'),
  MultiEdit: (input) => fileCall('edit_file', pathsIn(input, 'file_path', 'path'), 'Edit'),
  Delete: (input) => fileCall('delete_files', pathsIn(input, 'file_path', 'path'), 'Delete'),
  // Its default output is not documented: read as lines, the stricter.
  Grep: (input) =>
    searchCall(
      str(input, 'pattern', 'query') ?? '',
      str(input, 'path'),
      toolSearchWalk(input, { globKeys: ['glob', 'include'], namesByDefault: false }),
    ),
  Glob: (input) =>
    globCall(
      str(input, 'glob_pattern', 'pattern') ?? '',
      pathsIn(input, 'target_directory', 'path'),
    ),
  WebFetch: (input) => fetchCall(str(input, 'url')),
};

/** `MCP:server:tool` (how the adapter names a beforeMCPExecution call). */
const CURSOR_MCP = /^MCP:(.+?):(.+)$/;

export function cursorToolAction(tool: string, input: ToolInput, parser: ShellParser): ToolMapping {
  const mcp = CURSOR_MCP.exec(tool);
  if (mcp?.[1] && mcp[2]) return mcpCall(mcp[1], mcp[2], input);
  return mapThroughTable(CURSOR_TOOLS, tool, input, parser);
}
