import type { ShellParser } from './shell-syntax';
import {
  INTERNAL,
  commandCall,
  fetchCall,
  fileCall,
  gate,
  globCall,
  mapThroughTable,
  pathSpec,
  searchCall,
  toolSearchWalk,
  shellCall,
  str,
  webSearchCall,
  type ToolInput,
  type ToolMapping,
  type ToolTable,
} from './tool-mapping';

export type { ToolMapping } from './tool-mapping';

import { fileResourcePath, isInternalTool } from './claude-code-internal';
import { asShellBackground, withSandboxEscape } from './sandbox-escape';

/** PowerShell's syntax is not sh's, but a plain command line (`git push`, `npm install`)
 * reads the same, and what the sh reader cannot place becomes run_command, which asks. */
const shell = commandCall;

/** Claude Code's tools (2.1.330), each with how to read its input. */
export const CLAUDE_CODE_TOOLS: ToolTable = {
  Bash: shell,
  PowerShell: shell,
  Monitor: (input, parser) => {
    // A watch runs a shell command (each output line an event) or opens a WebSocket.
    const command = str(input, 'command');
    const what = str(input, 'description');
    if (command === undefined) {
      const ws = input.ws;
      const url = typeof ws === 'object' && ws !== null ? str(ws as ToolInput, 'url') : undefined;
      return gate(
        [url ? { action: 'web_fetch', target: url } : { action: 'web_fetch' }],
        `Watch ${url ?? 'a WebSocket'}${what ? ` (${what})` : ''}`,
      );
    }
    return shellCall(command, parser, what ? `Watch: ${what}` : undefined, 'Watch');
  },
  Write: (input) => fileCall('write_file', str(input, 'file_path'), 'Write'),
  Edit: (input) => fileCall('edit_file', str(input, 'file_path'), 'Edit'),
  MultiEdit: (input) => fileCall('edit_file', str(input, 'file_path'), 'Edit'),
  NotebookEdit: (input) => {
    const path = str(input, 'notebook_path');
    return gate([pathSpec('edit_file', path)], `Edit notebook ${path ?? ''}`.trim());
  },
  Read: (input) => fileCall('read_file', str(input, 'file_path'), 'Read'),
  NotebookRead: (input) => {
    const path = str(input, 'notebook_path');
    return gate([pathSpec('read_file', path)], `Read notebook ${path ?? ''}`.trim());
  },
  // Grep runs rg --hidden; it prints names unless `output_mode: content`.
  Grep: (input) =>
    searchCall(
      str(input, 'pattern') ?? '',
      str(input, 'path'),
      toolSearchWalk(input, { globKeys: ['glob'], namesByDefault: true }),
    ),
  Glob: (input) => globCall(str(input, 'pattern') ?? '', str(input, 'path')),
  LS: (input) => {
    const path = str(input, 'path');
    return gate([pathSpec('list_files', path)], `List ${path ?? 'the directory'}`);
  },
  // A resource read of a `file:` URI reads that file through the server (else internal).
  ReadMcpResourceTool: (input) =>
    fileCall('read_file', fileResourcePath(input), 'Read MCP resource'),
  ReadMcpResourceDirTool: (input) =>
    fileCall('list_files', fileResourcePath(input), 'List MCP resources of'),
  WebFetch: (input) => fetchCall(str(input, 'url')),
  WebSearch: (input) => webSearchCall(str(input, 'query') ?? ''),
};

/**
 * Maps a Claude Code tool call to Gatehouse actions. Pure: no I/O, so every mapping is
 * unit-tested. MCP tools (`mcp__server__tool`) become `mcp:server:tool`; other unknown tools
 * become `tool:Name`. Both ask unless a rule says otherwise. Shell commands go through `parser`.
 * A call whose input asks to run outside Claude Code's sandbox asks that first (sandbox-escape.ts).
 */
export function toolAction(toolName: string, input: ToolInput, parser: ShellParser): ToolMapping {
  if (isInternalTool(toolName, input)) return INTERNAL;
  // Bash's run_in_background is judged as the `&` it stands for.
  const judged = toolName === 'Bash' ? asShellBackground(input) : input;
  return withSandboxEscape(mapThroughTable(CLAUDE_CODE_TOOLS, toolName, judged, parser), input);
}
