// Kept apart from the tool table: the hook relay reads it without loading the shell parser's code.
/**
 * Tools that only touch Claude Code's own state (plans, todos, tasks, subagents, questions,
 * schedules, notifications to the user): Claude Code itself runs them without asking.
 * Checked against the tool list built into Claude Code 2.1.330 (`claude` binary, the table
 * of built-in tool names and its legacy aliases). `TaskOutput` is a 2.1.3xx name that 2.1.330
 * lists as legacy; it only reads a background task's output. Tools not listed here and not
 * mapped below (EnterWorktree, RemoteTrigger, SendMessage, Workflow, …) ask.
 */
export const INTERNAL_TOOLS: ReadonlySet<string> = new Set([
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

/** MCP resource reads: a server's data, bookkeeping unless the resource is a file. */
const RESOURCE_READS: ReadonlySet<string> = new Set([
  'ReadMcpResourceTool',
  'ReadMcpResourceDirTool',
]);

/**
 * The file a resource read names (`uri: file:///…`), or undefined: a server that serves files
 * as resources hands over any file it can read, Gatehouse's own included, so that read is
 * judged as a read of the file.
 */
export function fileResourcePath(input: Record<string, unknown> | undefined): string | undefined {
  const uri = input?.uri;
  if (typeof uri !== 'string' || !/^file:/i.test(uri)) return undefined;
  const path = uri.replace(/^file:(\/\/[^/]*)?/i, '');
  try {
    return decodeURIComponent(path) || '/';
  } catch {
    return path || '/';
  }
}

/**
 * True for Claude Code's own bookkeeping tools, known without parsing anything; a resource
 * read of a `file:` URI is not one (see {@link fileResourcePath}).
 */
export const isInternalTool = (toolName: string, input?: Record<string, unknown>): boolean =>
  INTERNAL_TOOLS.has(toolName) &&
  !(RESOURCE_READS.has(toolName) && fileResourcePath(input) !== undefined);
