// Kept apart from the tool table: the hook relay reads it without loading the tool tables' code.
/**
 * Tools that only touch Copilot CLI's own state (its background shells' output, its session
 * database, subagents whose own calls go through preToolUse again, skills, its docs): no
 * opinion, no answer. From the tool declarations Copilot CLI 1.0.102 sends the model.
 */
export const COPILOT_INTERNAL_TOOLS: ReadonlySet<string> = new Set([
  'read_bash',
  'stop_bash',
  'list_bash',
  'sql',
  'session_store_sql',
  'read_agent',
  'list_agents',
  'write_agent',
  'task',
  'skill',
  'fetch_copilot_cli_documentation',
  'report_intent',
  'update_todo',
]);
