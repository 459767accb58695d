import { COPILOT_INTERNAL_TOOLS } from '../../../tools/copilot-internal';
import { defaultWaitMs } from '../relay/wait-defaults';
import {
  checkPayload,
  invalidPayload,
  isRecord,
  optional,
  type JsonRecord,
} from '../relay/payload-check';
import type { AgentAdapter, HookDecision, HookEvent } from '../relay/types';

/** The Copilot CLI events Gatehouse installs: every call, or only what Copilot would prompt for. */
export const COPILOT_GATE_EVENTS = ['preToolUse', 'permissionRequest'] as const;
/** Recorded only: the session's (in `copilot -p`, the run's) end. */
export const COPILOT_END_EVENT = 'sessionEnd';

/**
 * How a sessionEnd `reason` ends the Gatehouse session: `complete` (a `copilot -p` run's turn
 * is done, checked with 1.0.102) and `user_exit` (the person left) complete it, `error` (the
 * turn failed) aborts it; any other reason is only recorded.
 */
function copilotEndStatus(reason: string | undefined): 'completed' | 'aborted' | undefined {
  if (reason === 'complete' || reason === 'user_exit') return 'completed';
  return reason === 'error' ? 'aborted' : undefined;
}

/**
 * Tool arguments arrive as an object (1.0.102) or, in older releases, as a JSON string. A
 * tool whose argument is free text (apply_patch's patch) is kept as `input`, so its mapping
 * reads it rather than nothing.
 */
function argsOf(raw: unknown): JsonRecord {
  if (isRecord(raw)) return raw;
  if (typeof raw === 'string' && raw) {
    try {
      const parsed: unknown = JSON.parse(raw);
      return isRecord(parsed) ? parsed : { input: raw };
    } catch {
      return { input: raw };
    }
  }
  return {};
}

/**
 * Copilot CLI's hook payloads (1.0.102, recorded from real runs). preToolUse:
 * `sessionId, timestamp, cwd, toolName, toolArgs` (no event name); permissionRequest:
 * `hookName: "permissionRequest", sessionId, timestamp, cwd, toolName, toolInput,
 * permissionSuggestions`. No call id.
 */
export function copilotEvent(text: string): HookEvent {
  const checked = checkPayload(text, {
    strings: [],
    optionalStrings: ['hookName', 'sessionId', 'cwd', 'toolName'],
  });
  if (!checked.ok) return invalidPayload(text, checked.error, 'hookName');
  const p = checked.value;
  // preToolUse and sessionEnd payloads carry no event name: told apart by their fields.
  const event =
    optional(p, 'hookName') ??
    ('toolArgs' in p ? 'preToolUse' : 'reason' in p ? COPILOT_END_EVENT : undefined);
  if (event === COPILOT_END_EVENT) return sessionEnd(p);
  if (!event) return { kind: 'invalid', error: 'neither hookName nor toolArgs: not a tool event' };
  if (!(COPILOT_GATE_EVENTS as readonly string[]).includes(event)) return { kind: 'ignore', event };
  const sessionId = optional(p, 'sessionId');
  const tool = optional(p, 'toolName');
  if (!sessionId) return { kind: 'invalid', error: 'sessionId is missing', event };
  if (!tool) return { kind: 'invalid', error: `${event} without toolName`, event };
  const cwd = optional(p, 'cwd');
  return {
    kind: 'tool',
    event,
    sessionId,
    tool,
    input: argsOf(event === 'permissionRequest' ? p.toolInput : p.toolArgs),
    ...(cwd ? { cwd } : {}),
  };
}

/** sessionEnd (`sessionId, timestamp, cwd, reason`): recorded, and may end the session. */
function sessionEnd(p: JsonRecord): HookEvent {
  const event = COPILOT_END_EVENT;
  const sessionId = optional(p, 'sessionId');
  if (!sessionId) return { kind: 'ignore', event };
  const cwd = optional(p, 'cwd');
  const reason = optional(p, 'reason');
  const end = copilotEndStatus(reason);
  return {
    kind: 'record',
    event,
    sessionId,
    ...(cwd ? { cwd } : {}),
    type: 'copilot.session_end',
    description: `Copilot CLI session ended${reason ? ` (${reason})` : ''}`,
    details: { event, ...(reason ? { reason } : {}) },
    ...(end ? { end } : { note: `session ${reason ?? 'ended'}: kept open, it may go on` }),
  };
}

export type CopilotAnswer =
  | {
      permissionDecision: 'allow' | 'deny';
      permissionDecisionReason: string;
      /** With `allow`: the arguments Copilot CLI runs the tool with instead (an edited call). */
      modifiedArgs?: Record<string, unknown>;
      /** With a person's `allow`: their approval and note, for the model to read. */
      additionalContext?: string;
    }
  | { behavior: 'allow' | 'deny'; message?: string };

/**
 * Copilot CLI's answers: preToolUse `{"permissionDecision":"allow"|"deny",
 * "permissionDecisionReason":…}` (a deny reaches the model as "Denied by preToolUse hook:
 * <reason>"), permissionRequest `{"behavior":"allow"|"deny","message":…}`. Copilot's hooks
 * have no "stop the run" answer, so a stop is a deny that says so, given to every call while
 * it lasts. `ask` would hand the call to Copilot's own prompt, which fires the
 * permissionRequest hook and would ask the person a second time, so the adapter never asks
 * (canAsk false); `defer` prints nothing.
 */
export function copilotAnswer(event: string, d: HookDecision): CopilotAnswer | undefined {
  if (d.behavior === 'defer') return undefined;
  const allow = d.behavior === 'allow';
  if (event === 'permissionRequest')
    return allow ? { behavior: 'allow' } : { behavior: 'deny', message: d.reason };
  return {
    permissionDecision: allow ? 'allow' : 'deny',
    permissionDecisionReason: d.reason,
    ...(allow && d.updatedInput ? { modifiedArgs: d.updatedInput } : {}),
    ...(allow && d.byPerson ? { additionalContext: d.reason } : {}),
  };
}

export const copilotAdapter: AgentAdapter = {
  agent: 'copilot',
  defaults: { agent: 'copilot', label: 'Copilot CLI', waitMs: defaultWaitMs('copilot') },
  gateEvent: 'preToolUse',
  canAsk: false,
  isInternal: (tool) => COPILOT_INTERNAL_TOOLS.has(tool),
  parse: copilotEvent,
  answer: copilotAnswer,
  // preToolUse's `modifiedArgs` is what Copilot CLI runs (copilot-cli.test.ts: an edited push).
  takesUpdatedInput: (event) => event === 'preToolUse',
};
