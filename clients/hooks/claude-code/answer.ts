/** What the hook decides for a tool call. `ask` hands the decision to Claude Code's own prompt. */
export interface HookDecision {
  behavior: 'allow' | 'deny' | 'ask';
  reason: string;
}

/** Claude Code's documented answer for PreToolUse (`hookSpecificOutput.permissionDecision`). */
export interface PreToolUseAnswer {
  hookSpecificOutput: {
    hookEventName: 'PreToolUse';
    permissionDecision: 'allow' | 'deny' | 'ask';
    permissionDecisionReason: string;
  };
}

/** Claude Code's documented answer for PermissionRequest (`hookSpecificOutput.decision`). */
export interface PermissionRequestAnswer {
  hookSpecificOutput: {
    hookEventName: 'PermissionRequest';
    decision: { behavior: 'allow' | 'deny'; message?: string };
  };
}

export type HookAnswer = PreToolUseAnswer | PermissionRequestAnswer;

/**
 * The JSON to print on stdout for an event, or undefined for none. For PermissionRequest an
 * `ask` prints nothing, so that Claude Code shows its own permission dialog.
 */
export function answerFor(event: string, d: HookDecision): HookAnswer | undefined {
  if (event === 'PreToolUse') {
    return {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: d.behavior,
        permissionDecisionReason: d.reason,
      },
    };
  }
  if (event === 'PermissionRequest' && d.behavior !== 'ask') {
    const decision =
      d.behavior === 'deny'
        ? { behavior: 'deny' as const, message: d.reason }
        : { behavior: 'allow' as const };
    return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } };
  }
  return undefined;
}
