import { defaultWaitMs } from '../relay/wait-defaults';
import {
  checkPayload,
  invalidPayload,
  optional,
  snakeCaseToolCall,
  type JsonRecord,
} from '../relay/payload-check';
import { endStatus } from '../relay/session-end';
import type { AgentAdapter, HookDecision, HookEvent } from '../relay/types';

/** The events Gatehouse installs for Codex: every tool call, or only what Codex would prompt for. */
export const CODEX_GATE_EVENTS = ['PreToolUse', 'PermissionRequest'] as const;
/** Events only recorded in the session: a turn's end, and the session's (which may end it). */
export const CODEX_RECORDED_EVENTS = ['Stop', 'SessionEnd'] as const;

/**
 * Codex CLI's hook payload (0.169: `session_id, turn_id, transcript_path` (may be null),
 * `cwd, hook_event_name, model, permission_mode, tool_name, tool_input, tool_use_id`, the
 * last absent on PermissionRequest).
 *
 * `cwd` is the call's: a shell call's `workdir` (which the model picks) when it has one,
 * checked with 0.169.0. Codex runs the hook in the session's own directory, `sessionDir`
 * (the hook's working directory): that is the project, so a `workdir` cannot move it.
 */
export function codexEvent(text: string, sessionDir?: string): HookEvent {
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
      'reason',
    ],
    objects: ['tool_input'],
  });
  if (!checked.ok) return invalidPayload(text, checked.error, 'hook_event_name');
  const p = checked.value;
  const event = p.hook_event_name as string;
  if ((CODEX_RECORDED_EVENTS as readonly string[]).includes(event)) return recorded(event, p);
  if (!(CODEX_GATE_EVENTS as readonly string[]).includes(event)) return { kind: 'ignore', event };
  const call = snakeCaseToolCall(event, p);
  if (call.kind !== 'tool') return call;
  const toolUseId = optional(p, 'tool_use_id');
  const permissionMode = optional(p, 'permission_mode');
  return {
    ...call,
    ...(sessionDir ? { project: sessionDir } : {}),
    ...(toolUseId ? { toolUseId } : {}),
    ...(permissionMode ? { permissionMode } : {}),
  };
}

/** Stop and SessionEnd: recorded in the Codex session; SessionEnd `other` (`codex exec` ended) completes it. */
function recorded(event: string, p: JsonRecord): HookEvent {
  const sessionId = optional(p, 'session_id');
  if (!sessionId) return { kind: 'ignore', event };
  const cwd = optional(p, 'cwd');
  const reason = optional(p, 'reason');
  const end = event === 'SessionEnd' ? endStatus(reason) : undefined;
  return {
    kind: 'record',
    event,
    sessionId,
    ...(cwd ? { cwd } : {}),
    type: event === 'Stop' ? 'codex.stop' : 'codex.session_end',
    description:
      event === 'Stop'
        ? 'Codex finished its turn'
        : `Codex session ended${reason ? ` (${reason})` : ''}`,
    details: { event, ...(reason ? { reason } : {}) },
    ...(end ? { end } : {}),
    ...(event === 'SessionEnd' && !end
      ? { note: `session ${reason ?? 'ended'}: kept open, it may go on` }
      : {}),
  };
}

/**
 * Codex's answers, exactly as its output parser (codex-rs/hooks/src/engine/output_parser.rs,
 * 0.169) takes them. A PreToolUse output with a field it does not support (`continue: false`,
 * `stopReason`, `permissionDecision: "ask"`, or `"allow"` without `updatedInput`) makes the
 * hook "failed" — and a failed hook lets the call run. So:
 * - an allow of the call as asked sets no decision (nothing blocks it, the call runs);
 * - an allow of an edited call is `permissionDecision: "allow"` with `updatedInput`, which
 *   Codex runs instead: for its shell and apply_patch tools the edit's string `command` (the
 *   command, or the patch; codex-cli.test.ts: an edited push and patch), for an MCP tool its
 *   arguments (codex-cli-mcp.test.ts);
 * - a person's approval carries its reason (their note) as `additionalContext`, which Codex
 *   adds to what the model reads next;
 * - there is no "stop the run" answer: a stop (pause, kill, breaker) is a deny whose reason
 *   says so, given again to every call while it lasts.
 * Codex has no prompt a non-interactive run could hand a call back to, so `ask` is a deny;
 * `defer` prints nothing. PermissionRequest takes no edited input (`updatedInput` there is
 * "unsupported", so the adapter never answers that event with one).
 */
export function codexAnswer(event: string, d: HookDecision): unknown {
  if (d.behavior === 'defer') return undefined;
  const allow = d.behavior === 'allow';
  if (event === 'PermissionRequest')
    return {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: allow ? { behavior: 'allow' } : { behavior: 'deny', message: d.reason },
      },
    };
  if (!allow)
    return {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: d.reason,
      },
    };
  const note = d.byPerson ? { additionalContext: d.reason } : {};
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      ...(d.updatedInput
        ? {
            permissionDecision: 'allow',
            permissionDecisionReason: d.reason,
            updatedInput: d.updatedInput,
          }
        : {}),
      ...note,
    },
  };
}

export const codexAdapter: AgentAdapter = {
  agent: 'codex',
  defaults: { agent: 'codex', label: 'Codex', waitMs: defaultWaitMs('codex') },
  gateEvent: 'PreToolUse',
  canAsk: false,
  parse: (text) => codexEvent(text, process.cwd()),
  answer: codexAnswer,
  // PreToolUse's `updatedInput` is what Codex runs (codex-cli.test.ts: an edited push).
  takesUpdatedInput: (event) => event === 'PreToolUse',
};
