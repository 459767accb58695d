import { GEMINI_INTERNAL_TOOLS } from '../../../tools/gemini-internal';
import type { McpToolRef } from '../../../tools/tool-mapping';
import { endStatus } from '../relay/session-end';
import { defaultWaitMs } from '../relay/wait-defaults';
import {
  checkPayload,
  invalidPayload,
  isRecord,
  optional,
  snakeCaseToolCall,
} from '../relay/payload-check';
import type { AgentAdapter, HookDecision, HookEvent } from '../relay/types';

/** The Gemini CLI event Gatehouse installs: every tool call, before it runs. */
export const GEMINI_GATE_EVENT = 'BeforeTool';
/**
 * After every tool call that ran: asks Gatehouse for a person's approval note, which the
 * answer's `additionalContext` adds to the call's result (BeforeTool cannot carry it).
 */
export const GEMINI_AFTER_EVENT = 'AfterTool';
/** Recorded only: the session's end, which completes the Gatehouse session. */
export const GEMINI_END_EVENT = 'SessionEnd';

/**
 * Gemini CLI's BeforeTool payload (0.61.0, recorded from a real run): `session_id,
 * transcript_path, cwd, hook_event_name, timestamp, tool_name, tool_input`, and for MCP tools
 * `mcp_context` (`server_name`, `tool_name` as configured, `command`, `args`, `cwd`, `url`).
 * No call id: a call is known by its session and content.
 */
export function geminiEvent(text: string): HookEvent {
  const checked = checkPayload(text, {
    strings: ['hook_event_name'],
    optionalStrings: ['session_id', 'transcript_path', 'cwd', 'tool_name'],
    objects: ['tool_input'],
  });
  if (!checked.ok) {
    const invalid = invalidPayload(text, checked.error, 'hook_event_name');
    // An AfterTool payload that cannot be read misses at most a note: never a refusal.
    return invalid.kind === 'invalid' && invalid.event === GEMINI_AFTER_EVENT
      ? { kind: 'ignore', event: GEMINI_AFTER_EVENT }
      : invalid;
  }
  const p = checked.value;
  const event = p.hook_event_name as string;
  if (event === GEMINI_END_EVENT) return sessionEnd(p);
  if (event === GEMINI_AFTER_EVENT) return callResult(p);
  if (event !== GEMINI_GATE_EVENT) return { kind: 'ignore', event };
  const call = snakeCaseToolCall(event, p);
  if (call.kind !== 'tool') return call;
  // Gemini CLI sends mcp_context only for MCP tools, all named `mcp_…`.
  const mcp = call.tool.startsWith('mcp_') ? mcpContext(p.mcp_context) : undefined;
  return mcp ? { ...call, mcp } : call;
}

/**
 * AfterTool (0.61.0): BeforeTool's fields plus `tool_response`, with `tool_input` as the tool
 * ran it (a hook's edit included). One Gatehouse cannot read is let be.
 */
function callResult(p: Record<string, unknown>): HookEvent {
  const call = snakeCaseToolCall(GEMINI_AFTER_EVENT, p);
  if (call.kind !== 'tool') return { kind: 'ignore', event: GEMINI_AFTER_EVENT };
  const { sessionId, tool, input, cwd, transcriptPath } = call;
  return {
    kind: 'result',
    event: GEMINI_AFTER_EVENT,
    sessionId,
    tool,
    input,
    ...(cwd ? { cwd } : {}),
    ...(transcriptPath ? { transcriptPath } : {}),
  };
}

/** The gate's limit on an MCP server's or tool's name. */
const MAX_MCP_NAME = 128;

/**
 * An MCP call's server and tool as Gemini CLI configured them (`mcp_context.server_name`,
 * `tool_name`): what tells the server, since `mcp_<server>_<tool>` does not when the server's
 * name holds `_`. A context that cannot be read is left out, and the call asks by its name.
 */
function mcpContext(raw: unknown): McpToolRef | undefined {
  if (!isRecord(raw)) return undefined;
  const { server_name: server, tool_name: tool } = raw;
  if (typeof server !== 'string' || typeof tool !== 'string') return undefined;
  if (!server || !tool || server.length > MAX_MCP_NAME || tool.length > MAX_MCP_NAME)
    return undefined;
  return { server, tool };
}

/**
 * SessionEnd (reasons exit, clear, logout, prompt_input_exit, other; `gemini -p` sends exit
 * when its run ends, checked with 0.61.0): recorded, and exit completes the session like the
 * other agents' ends (session-end.ts).
 */
function sessionEnd(p: Record<string, unknown>): HookEvent {
  const event = GEMINI_END_EVENT;
  const sessionId = optional(p, 'session_id');
  if (!sessionId) return { kind: 'ignore', event };
  const cwd = optional(p, 'cwd');
  const reason = optional(p, 'reason');
  const end = reason === 'exit' ? 'completed' : endStatus(reason);
  return {
    kind: 'record',
    event,
    sessionId,
    ...(cwd ? { cwd } : {}),
    type: 'gemini.session_end',
    description: `Gemini CLI session ended${reason ? ` (${reason})` : ''}`,
    details: { event, ...(reason ? { reason } : {}) },
    ...(end ? { end } : { note: `session ${reason ?? 'ended'}: kept open, it may go on` }),
  };
}

/** Gemini CLI's BeforeTool answer: `decision` allow|deny with `reason`; `continue: false` ends the run. */
export interface GeminiAnswer {
  decision: 'allow' | 'deny';
  reason: string;
  continue?: false;
  stopReason?: string;
  /** With `allow`: `tool_input`, the input Gemini CLI runs the tool with instead (an edited call). */
  hookSpecificOutput?: { hookEventName: 'BeforeTool'; tool_input: Record<string, unknown> };
}

/**
 * Gemini CLI reads `{"decision":"allow"|"deny","reason":…}`; the reason of a deny goes to the
 * model as the tool's error ("Tool execution blocked: <reason>"). A stop (pause, kill,
 * breaker) adds `continue: false`, which ends the whole agent loop (checked with 0.61.0:
 * "Agent execution stopped by hook"); the deny stays beside it. An allow of an edited call
 * carries `hookSpecificOutput.tool_input`: Gemini CLI 0.61.0 builds the tool's call from it in
 * place of the model's (`evaluateBeforeToolHook`, packages/core/src/scheduler/hook-utils.ts:
 * `tool.build(modifiedInput)`, so the edit is the whole input, checked against the tool's
 * schema), runs its own policy check on it, and tells the model that a hook changed the
 * input (gemini-cli.test.ts: an edited push). The reason of an allow reaches no model from
 * here: BeforeTool has no field for it, so a person's note goes with AfterTool
 * ({@link geminiNoteAnswer}). `ask` is a deny here (a headless run has no prompt to hand
 * the call to); `defer` prints nothing and Gemini CLI's own flow goes on.
 */
export function geminiAnswer(_event: string, d: HookDecision): GeminiAnswer | undefined {
  if (d.behavior === 'defer') return undefined;
  const allow = d.behavior === 'allow';
  const answer: GeminiAnswer = { decision: allow ? 'allow' : 'deny', reason: d.reason };
  if (allow && d.updatedInput)
    return {
      ...answer,
      hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: d.updatedInput },
    };
  return d.stop ? { ...answer, continue: false, stopReason: d.reason } : answer;
}

/**
 * The AfterTool answer with a person's approval note: Gemini CLI 0.61.0 appends
 * `hookSpecificOutput.additionalContext` to the tool's result the model reads, as
 * `<hook_context>…</hook_context>` (`executeToolWithHooks`, packages/core/src/core/
 * coreToolHookTriggers.ts; `<` and `>` in the text escaped).
 */
export function geminiNoteAnswer(
  _event: string,
  note: string,
): { hookSpecificOutput: { hookEventName: 'AfterTool'; additionalContext: string } } {
  return { hookSpecificOutput: { hookEventName: GEMINI_AFTER_EVENT, additionalContext: note } };
}

export const geminiAdapter: AgentAdapter = {
  agent: 'gemini',
  defaults: { agent: 'gemini', label: 'Gemini CLI', waitMs: defaultWaitMs('gemini') },
  gateEvent: GEMINI_GATE_EVENT,
  canAsk: false,
  isInternal: (tool) => GEMINI_INTERNAL_TOOLS.has(tool),
  parse: geminiEvent,
  answer: geminiAnswer,
  // BeforeTool's `hookSpecificOutput.tool_input` is what Gemini CLI runs (gemini-cli.test.ts).
  takesUpdatedInput: (event) => event === GEMINI_GATE_EVENT,
  // A person's approval note reaches the model from AfterTool (gemini-cli.test.ts).
  noteAnswer: geminiNoteAnswer,
};
