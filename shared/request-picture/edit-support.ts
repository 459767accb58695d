/**
 * Agents, and their hook events, whose answer can carry an edited tool input that the agent
 * then runs: Claude Code's PreToolUse (`hookSpecificOutput.updatedInput`), Copilot CLI's
 * preToolUse (`modifiedArgs`, checked against the real CLI), OpenCode's tool.execute.before
 * (the plugin replaces `output.args`' contents, checked against the real CLI). The others'
 * adapters do not pass one on yet, so an edit of their calls is refused (and not offered)
 * rather than approving a call the agent would not run.
 */
export const EDITABLE_EVENTS: Readonly<Record<string, readonly string[]>> = {
  'claude-code': ['PreToolUse'],
  copilot: ['preToolUse'],
  opencode: ['tool.execute.before'],
};

/** True when the request's agent can run an edited call (the client and event of its hook). */
export function canTakeEdit(r: { context?: Record<string, unknown> | undefined }): boolean {
  const client = r.context?.client;
  const event = r.context?.event;
  return (
    typeof client === 'string' &&
    typeof event === 'string' &&
    (EDITABLE_EVENTS[client]?.includes(event) ?? false)
  );
}
