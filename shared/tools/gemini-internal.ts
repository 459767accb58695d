// Kept apart from the tool table: the hook relay reads it without loading the tool tables' code.
/**
 * Tools that only touch Gemini CLI's own state (topics, todos, plan mode, skills, subagents
 * whose own tool calls go through BeforeTool again, its background shells' output): no
 * opinion, no answer. From the tool declarations Gemini CLI 0.61.0 sends the model.
 */
export const GEMINI_INTERNAL_TOOLS: ReadonlySet<string> = new Set([
  'update_topic',
  'write_todos',
  'enter_plan_mode',
  'exit_plan_mode',
  'list_background_processes',
  'read_background_output',
  'invoke_agent',
  'activate_skill',
  'save_memory',
]);
