import { asPolicyChange, type ActionSpec } from './action-spec';
import { bashActions } from './bash-actions';
import type { ShellParser } from './shell-syntax';

/** What a Claude Code tool call means for Gatehouse. */
export type ToolMapping =
  | {
      kind: 'gate';
      /** Candidate actions, most restrictive first; the hook asks about each. */
      candidates: ActionSpec[];
      /** A line for the human: what the tool is about to do. */
      description: string;
      /** The shell command, for Bash (project policies match commands). */
      command?: string;
    }
  /** Claude Code's own bookkeeping tools: Gatehouse has no opinion and stays out of the way. */
  | { kind: 'internal' };

/**
 * Tools that only touch Claude Code's own state (plans, todos, tasks, subagents, questions,
 * schedules, notifications to the user): Claude Code itself runs them without asking.
 * Checked against the tool list built into Claude Code 2.1.330 (`claude` binary, the table
 * of built-in tool names and its legacy aliases). `TaskOutput` is a 2.1.3xx name that 2.1.330
 * lists as legacy; it only reads a background task's output. Tools not listed here and not
 * mapped below (EnterWorktree, RemoteTrigger, SendMessage, Workflow, …) ask.
 */
const INTERNAL_TOOLS = new Set([
  'Agent',
  'TodoWrite',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskUpdate',
  'TaskOutput',
  'TaskStop',
  'ExitPlanMode',
  'EnterPlanMode',
  'AskUserQuestion',
  'ToolSearch',
  'LSP',
  'CronCreate',
  'CronDelete',
  'CronList',
  'ListAgents',
  'ScheduleWakeup',
  'WaitForMcpServers',
  'ExitWorktree',
  'PushNotification',
  'ReportFindings',
  'Skill',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
  'ReadMcpResourceDirTool',
]);

/** True for Claude Code's own bookkeeping tools, known without parsing anything. */
export const isInternalTool = (toolName: string): boolean => INTERNAL_TOOLS.has(toolName);

type Input = Record<string, unknown>;
/** The protocol's limit on an action name. */
const MAX_ACTION = 128;
const str = (input: Input, key: string): string | undefined => {
  const v = input[key];
  return typeof v === 'string' && v.length ? v : undefined;
};
const clip = (s: string, n = 200): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const gate = (candidates: ActionSpec[], description: string, command?: string): ToolMapping =>
  command === undefined
    ? { kind: 'gate', candidates, description }
    : { kind: 'gate', candidates, description, command };
const pathSpec = (action: string, path: string | undefined): ActionSpec =>
  asPolicyChange(path ? { action, paths: [path] } : { action });

/**
 * Maps a tool call to Gatehouse actions. Pure: no I/O, so every mapping is unit-tested.
 * MCP tools (`mcp__server__tool`) become `mcp:server:tool`; other unknown tools become
 * `tool:Name`. Both ask unless a rule says otherwise. Shell commands go through `parser`.
 */
export function toolAction(toolName: string, input: Input, parser: ShellParser): ToolMapping {
  if (INTERNAL_TOOLS.has(toolName)) return { kind: 'internal' };
  switch (toolName) {
    // PowerShell's syntax is not sh's, but a plain command line (`git push`, `npm install`)
    // reads the same, and what the sh reader cannot place becomes run_command, which asks.
    case 'Bash':
    case 'PowerShell': {
      const command = str(input, 'command') ?? '';
      const what = str(input, 'description');
      return gate(
        bashActions(command, parser),
        clip(what ? `${what}: ${command}` : `Run: ${command}`, 500),
        command,
      );
    }
    case 'Monitor': {
      // A watch runs a shell command (each output line an event) or opens a WebSocket.
      const command = str(input, 'command');
      const what = str(input, 'description');
      if (command === undefined) {
        const ws = input.ws;
        const url = typeof ws === 'object' && ws !== null ? str(ws as Input, 'url') : undefined;
        return gate(
          [url ? { action: 'web_fetch', target: url } : { action: 'web_fetch' }],
          `Watch ${url ?? 'a WebSocket'}${what ? ` (${what})` : ''}`,
        );
      }
      return gate(
        bashActions(command, parser),
        clip(what ? `Watch: ${what}: ${command}` : `Watch: ${command}`, 500),
        command,
      );
    }
    case 'Write': {
      const path = str(input, 'file_path');
      return gate([pathSpec('write_file', path)], `Write ${path ?? 'a file'}`);
    }
    case 'Edit':
    case 'MultiEdit': {
      const path = str(input, 'file_path');
      return gate([pathSpec('edit_file', path)], `Edit ${path ?? 'a file'}`);
    }
    case 'NotebookEdit': {
      const path = str(input, 'notebook_path');
      return gate([pathSpec('edit_file', path)], `Edit notebook ${path ?? ''}`.trim());
    }
    case 'Read': {
      const path = str(input, 'file_path');
      return gate([pathSpec('read_file', path)], `Read ${path ?? 'a file'}`);
    }
    case 'NotebookRead': {
      const path = str(input, 'notebook_path');
      return gate([pathSpec('read_file', path)], `Read notebook ${path ?? ''}`.trim());
    }
    case 'Grep': {
      const pattern = str(input, 'pattern') ?? '';
      const path = str(input, 'path');
      return gate(
        [{ ...pathSpec('search_files', path), target: pattern }],
        `Search for "${clip(pattern, 100)}"${path ? ` in ${path}` : ''}`,
      );
    }
    case 'Glob': {
      const pattern = str(input, 'pattern') ?? '';
      const path = str(input, 'path');
      return gate(
        [{ ...pathSpec('list_files', path), target: pattern }],
        `List files matching ${pattern}${path ? ` in ${path}` : ''}`,
      );
    }
    case 'LS': {
      const path = str(input, 'path');
      return gate([pathSpec('list_files', path)], `List ${path ?? 'the directory'}`);
    }
    case 'WebFetch': {
      const url = str(input, 'url');
      return gate(
        [url ? { action: 'web_fetch', target: url } : { action: 'web_fetch' }],
        `Fetch ${url ?? 'a URL'}`,
      );
    }
    case 'WebSearch': {
      const query = str(input, 'query') ?? '';
      return gate(
        [{ action: 'web_fetch', target: `search: ${clip(query, 200)}` }],
        `Search the web for "${clip(query, 200)}"`,
      );
    }
  }
  const mcp = /^mcp__(.+?)__(.+)$/.exec(toolName);
  if (mcp) {
    const action = `mcp:${mcp[1]}:${mcp[2]}`.slice(0, MAX_ACTION);
    return gate(
      [{ action }],
      `Call MCP tool ${mcp[2]} of server ${mcp[1]} ${clip(JSON.stringify(input), 300)}`,
    );
  }
  return gate(
    [{ action: `tool:${toolName}`.slice(0, MAX_ACTION) }],
    `Use tool ${toolName} ${clip(JSON.stringify(input), 300)}`,
  );
}
