import {
  fetchCall,
  fileCall,
  globCall,
  mapThroughTable,
  searchCall,
  shellCall,
  str,
  type ToolInput,
  type ToolMapping,
  type ToolTable,
} from './tool-mapping';
import type { ShellParser } from './shell-syntax';

/**
 * GitHub Copilot CLI's tools (names as its preToolUse hook sees them). A first table from
 * the tool list in the issue; the Copilot adapter owns and refines it.
 */
export const COPILOT_TOOLS: ToolTable = {
  bash: (input, parser) =>
    shellCall(str(input, 'command') ?? '', parser, str(input, 'description')),
  shell: (input, parser) =>
    shellCall(str(input, 'command') ?? '', parser, str(input, 'description')),
  view: (input) => fileCall('read_file', str(input, 'path', 'file_path'), 'Read'),
  create: (input) => fileCall('write_file', str(input, 'path', 'file_path'), 'Write'),
  edit: (input) => fileCall('edit_file', str(input, 'path', 'file_path'), 'Edit'),
  str_replace: (input) => fileCall('edit_file', str(input, 'path', 'file_path'), 'Edit'),
  grep: (input) => searchCall(str(input, 'pattern') ?? '', str(input, 'path')),
  glob: (input) => globCall(str(input, 'pattern') ?? '', str(input, 'path')),
  web_fetch: (input) => fetchCall(str(input, 'url')),
};

export const copilotToolAction = (
  tool: string,
  input: ToolInput,
  parser: ShellParser,
): ToolMapping => mapThroughTable(COPILOT_TOOLS, tool, input, parser);
