/**
 * Agents, and their hook events, whose answer can carry an edited tool input that the agent
 * then runs, each checked against the real CLI: Claude Code's PreToolUse
 * (`hookSpecificOutput.updatedInput`), Copilot CLI's preToolUse (`modifiedArgs`), OpenCode's
 * tool.execute.before (the plugin replaces `output.args`' contents), Codex's PreToolUse
 * (`hookSpecificOutput.updatedInput` with `permissionDecision: "allow"`), Gemini CLI's
 * BeforeTool (`hookSpecificOutput.tool_input`). For any other agent or event (Cursor's hooks,
 * Codex's PermissionRequest, which calls an `updatedInput` unsupported) the adapter does not
 * pass one on, so an edit of those calls is refused (and not offered) rather than approving a
 * call the agent would not run.
 */
export const EDITABLE_EVENTS: Readonly<Record<string, readonly string[]>> = {
  'claude-code': ['PreToolUse'],
  copilot: ['preToolUse'],
  opencode: ['tool.execute.before'],
  codex: ['PreToolUse'],
  gemini: ['BeforeTool'],
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
