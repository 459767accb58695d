import {
  fetchCall,
  fileCall,
  globCall,
  mapThroughTable,
  searchCall,
  shellCall,
  str,
  webSearchCall,
  INTERNAL,
  type ToolInput,
  type ToolMapping,
  type ToolTable,
} from './tool-mapping';
import type { ShellParser } from './shell-syntax';

/**
 * Gemini CLI's built-in tools (names as its BeforeTool hook sees them). A first table from
 * the tool list in the issue; the Gemini adapter owns and refines it.
 */
export const GEMINI_TOOLS: ToolTable = {
  run_shell_command: (input, parser) =>
    shellCall(str(input, 'command') ?? '', parser, str(input, 'description')),
  read_file: (input) =>
    fileCall('read_file', str(input, 'absolute_path', 'file_path', 'path'), 'Read'),
  read_many_files: (input) => fileCall('read_file', str(input, 'path'), 'Read'),
  write_file: (input) => fileCall('write_file', str(input, 'file_path', 'absolute_path'), 'Write'),
  replace: (input) => fileCall('edit_file', str(input, 'file_path', 'absolute_path'), 'Edit'),
  list_directory: (input) => fileCall('list_files', str(input, 'path', 'dir_path'), 'List'),
  glob: (input) => globCall(str(input, 'pattern') ?? '', str(input, 'path', 'dir_path')),
  search_file_content: (input) =>
    searchCall(str(input, 'pattern') ?? '', str(input, 'path', 'dir_path')),
  web_fetch: (input) => fetchCall(str(input, 'url', 'prompt')),
  google_web_search: (input) => webSearchCall(str(input, 'query') ?? ''),
  save_memory: () => INTERNAL,
  write_todos: () => INTERNAL,
};

export const geminiToolAction = (
  tool: string,
  input: ToolInput,
  parser: ShellParser,
): ToolMapping => mapThroughTable(GEMINI_TOOLS, tool, input, parser);
