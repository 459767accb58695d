import { defaultWaitMs } from '../adapter/wait-defaults';
import { checkPayload, isRecord, optional } from '../adapter/payload-check';
import type { AgentAdapter, HookDecision, HookEvent } from '../adapter/types';

/** The events Gatehouse installs for Codex: every tool call, or only what Codex would prompt for. */
export const CODEX_GATE_EVENTS = ['PreToolUse', 'PermissionRequest'] as const;

/**
 * Codex CLI's hook payload (0.169: `session_id, turn_id, transcript_path` (may be null),
 * `cwd, hook_event_name, model, permission_mode, tool_name, tool_input, tool_use_id`, the
 * last absent on PermissionRequest).
 */
export function codexEvent(text: string): HookEvent {
  const checked = checkPayload(text, {
    strings: ['hook_event_name'],
    optionalStrings: [
      'session_id',
      'turn_id',
      'transcript_path',
      'cwd',
      'model',
      'permission_mode',
      'tool_name',
      'tool_use_id',
    ],
    objects: ['tool_input'],
  });
  if (!checked.ok) {
    const event = /"hook_event_name"\s*:\s*"(\w+)"/.exec(text)?.[1];
    return event
      ? { kind: 'invalid', error: checked.error, event }
      : { kind: 'invalid', error: checked.error };
  }
  const p = checked.value;
  const event = p.hook_event_name as string;
  if (!(CODEX_GATE_EVENTS as readonly string[]).includes(event)) return { kind: 'ignore', event };
  const sessionId = optional(p, 'session_id');
  const tool = optional(p, 'tool_name');
  if (!sessionId) return { kind: 'invalid', error: 'session_id is missing', event };
  if (!tool) return { kind: 'invalid', error: `${event} without tool_name`, event };
  const cwd = optional(p, 'cwd');
  const transcriptPath = optional(p, 'transcript_path');
  const toolUseId = optional(p, 'tool_use_id');
  const permissionMode = optional(p, 'permission_mode');
  return {
    kind: 'tool',
    event,
    sessionId,
    tool,
    input: isRecord(p.tool_input) ? p.tool_input : {},
    ...(cwd ? { cwd } : {}),
    ...(transcriptPath ? { transcriptPath } : {}),
    ...(toolUseId ? { toolUseId } : {}),
    ...(permissionMode ? { permissionMode } : {}),
  };
}

/**
 * Codex's answers, exactly as its output parser takes them: any other field (`updatedInput`,
 * a `message` on allow) makes Codex treat the hook as failed. Codex has no prompt a
 * non-interactive run could hand a call back to, so `ask` is a deny here; `defer` prints
 * nothing. A stop (pause, kill, breaker) adds `continue: false` with `stopReason`.
 */
export function codexAnswer(event: string, d: HookDecision): unknown {
  if (d.behavior === 'defer') return undefined;
  const allow = d.behavior === 'allow';
  const stop = d.stop ? { continue: false, stopReason: d.reason } : {};
  if (event === 'PermissionRequest')
    return {
      ...stop,
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: allow ? { behavior: 'allow' } : { behavior: 'deny', message: d.reason },
      },
    };
  return {
    ...stop,
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: allow ? 'allow' : 'deny',
      permissionDecisionReason: d.reason,
    },
  };
}

export const codexAdapter: AgentAdapter = {
  agent: 'codex',
  defaults: { agent: 'codex', label: 'Codex', waitMs: defaultWaitMs('codex') },
  gateEvent: 'PreToolUse',
  canAsk: false,
  parse: codexEvent,
  answer: codexAnswer,
};
