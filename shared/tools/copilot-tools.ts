import {
  commandCall,
  fetchCall,
  internalTools,
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
import { COPILOT_INTERNAL_TOOLS } from './copilot-internal';

export { COPILOT_INTERNAL_TOOLS } from './copilot-internal';

/** The path a tool names: `path`, or the first of `paths` (Copilot's grep and glob take a list). */
function firstPath(input: ToolInput): string | undefined {
  const one = str(input, 'path', 'file_path');
  if (one) return one;
  const list = input.paths;
  if (typeof list === 'string' && list) return list;
  return Array.isArray(list) && typeof list[0] === 'string' && list[0] ? list[0] : undefined;
}

/**
 * GitHub Copilot CLI's tools, names and input fields as its preToolUse hook sees them
 * (`toolName`, `toolArgs`; checked against Copilot CLI 1.0.102's tool declarations and hook
 * payloads): `bash{command, description, mode, detach}`, `write_bash{shellId, input}` (types
 * into a running shell: a command too), `view{path}`, `create{path, file_text}`,
 * `edit{path, old_str, new_str}`, `grep{pattern, paths}`, `glob{pattern, paths}`,
 * `web_fetch{url}`.
 */
export const COPILOT_TOOLS: ToolTable = {
  bash: commandCall,
  shell: commandCall,
  write_bash: (input, parser) => shellCall(str(input, 'input') ?? '', parser, undefined, 'Type'),
  view: (input) => fileCall('read_file', firstPath(input), 'Read'),
  create: (input) => fileCall('write_file', firstPath(input), 'Write'),
  edit: (input) => fileCall('edit_file', firstPath(input), 'Edit'),
  str_replace: (input) => fileCall('edit_file', firstPath(input), 'Edit'),
  grep: (input) => searchCall(str(input, 'pattern') ?? '', firstPath(input)),
  glob: (input) => globCall(str(input, 'pattern') ?? '', firstPath(input)),
  web_fetch: (input) => fetchCall(str(input, 'url')),
  ...internalTools(COPILOT_INTERNAL_TOOLS),
};

export const copilotToolAction = (
  tool: string,
  input: ToolInput,
  parser: ShellParser,
): ToolMapping => mapThroughTable(COPILOT_TOOLS, tool, input, parser);
