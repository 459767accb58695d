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

/** True for Claude Code's own bookkeeping tools, known without parsing anything. */
export const isInternalTool = (toolName: string): boolean => INTERNAL_TOOLS.has(toolName);
