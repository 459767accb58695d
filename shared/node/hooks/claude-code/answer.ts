import type { HookDecision } from '../relay/types';

export type { HookDecision } from '../relay/types';

/** Claude Code's common hook output fields: `continue: false` ends the turn, `stopReason` is shown to the user. */
interface StopFields {
  continue?: false;
  stopReason?: string;
}

/** Claude Code's documented answer for PreToolUse (`hookSpecificOutput.permissionDecision`). */
export interface PreToolUseAnswer extends StopFields {
  hookSpecificOutput: {
    hookEventName: 'PreToolUse';
    permissionDecision: 'allow' | 'deny' | 'ask';
    permissionDecisionReason: string;
    /** With `allow`: the input Claude Code runs instead (a call the person edited; sandbox.ts). */
    updatedInput?: Record<string, unknown>;
    /**
     * With a person's `allow`: their approval and note, which Claude Code adds to what the
     * model reads (`permissionDecisionReason` of an allow is shown to the user only).
     */
    additionalContext?: string;
  };
}

/** Claude Code's documented answer for PermissionRequest (`hookSpecificOutput.decision`). */
export interface PermissionRequestAnswer extends StopFields {
  hookSpecificOutput: {
    hookEventName: 'PermissionRequest';
    decision: {
      behavior: 'allow' | 'deny';
      message?: string;
      updatedInput?: Record<string, unknown>;
    };
  };
}

export type HookAnswer = PreToolUseAnswer | PermissionRequestAnswer;

/**
 * The JSON to print on stdout for an event, or undefined for none. `defer` prints nothing;
 * for PermissionRequest an `ask` prints nothing too, so that Claude Code shows its own dialog.
 */
export function answerFor(event: string, d: HookDecision): HookAnswer | undefined {
  if (d.behavior === 'defer') return undefined;
  // The deny stays beside `continue: false`: if a Claude Code ever ignored `continue`, the call is still refused.
  const stop: StopFields = d.stop ? { continue: false, stopReason: d.reason } : {};
  if (event === 'PreToolUse') {
    return {
      ...stop,
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: d.behavior,
        permissionDecisionReason: d.reason,
        ...(d.behavior === 'allow' && d.updatedInput ? { updatedInput: d.updatedInput } : {}),
        ...(d.behavior === 'allow' && d.byPerson ? { additionalContext: d.reason } : {}),
      },
    };
  }
  if (event === 'PermissionRequest' && d.behavior !== 'ask') {
    const decision =
      d.behavior === 'deny'
        ? { behavior: 'deny' as const, message: d.reason }
        : d.updatedInput
          ? { behavior: 'allow' as const, updatedInput: d.updatedInput }
          : { behavior: 'allow' as const };
    return { ...stop, hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } };
  }
  return undefined;
}
