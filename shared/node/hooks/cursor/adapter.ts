import { defaultWaitMs } from '../relay/wait-defaults';
import {
  checkPayload,
  invalidPayload,
  isRecord,
  optional,
  type JsonRecord,
} from '../relay/payload-check';
import type { AgentAdapter, HookDecision, HookEvent } from '../relay/types';

/** The Cursor events Gatehouse installs. */
export const CURSOR_EVENTS = [
  'beforeShellExecution',
  'beforeMCPExecution',
  'beforeReadFile',
  'preToolUse',
] as const;

/**
 * Tools whose own event gates them: preToolUse leaves them alone so a person is not asked
 * twice for one call (beforeShellExecution, beforeReadFile and beforeMCPExecution fire too).
 */
const GATED_BY_OWN_EVENT = /^(Shell|Terminal|Read|MCP(:.*)?)$/;

/** MCP arguments arrive as an object or as a JSON string (both are documented). */
function mcpInput(raw: unknown): JsonRecord {
  if (isRecord(raw)) return raw;
  if (typeof raw === 'string') {
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
 * Cursor's hook payload (https://cursor.com/docs/agent/hooks): common fields
 * `conversation_id, generation_id, hook_event_name, workspace_roots`, then per event
 * `command, cwd` (beforeShellExecution), `tool_name, tool_input, url|command`
 * (beforeMCPExecution), `file_path, content` (beforeReadFile), `tool_name, tool_input`
 * (preToolUse). Each becomes one tool call in the Cursor tool table (shared/tools/cursor-tools.ts).
 */
export function cursorEvent(text: string): HookEvent {
  const checked = checkPayload(text, {
    strings: ['hook_event_name'],
    optionalStrings: [
      'conversation_id',
      'generation_id',
      'command',
      'cwd',
      'tool_name',
      'tool_use_id',
      'file_path',
      'url',
      'transcript_path',
    ],
  });
  if (!checked.ok) return invalidPayload(text, checked.error, 'hook_event_name');
  const p = checked.value;
  const event = p.hook_event_name as string;
  if (!(CURSOR_EVENTS as readonly string[]).includes(event)) return { kind: 'ignore', event };
  const sessionId = optional(p, 'conversation_id');
  if (!sessionId) return { kind: 'invalid', error: 'conversation_id is missing', event };
  const roots = Array.isArray(p.workspace_roots) ? p.workspace_roots : [];
  const root = typeof roots[0] === 'string' && roots[0] ? roots[0] : undefined;
  const cwd = optional(p, 'cwd') ?? root;
  const transcriptPath = optional(p, 'transcript_path');
  const toolUseId = optional(p, 'tool_use_id');
  const base = {
    kind: 'tool' as const,
    event,
    sessionId,
    ...(cwd ? { cwd } : {}),
    ...(transcriptPath ? { transcriptPath } : {}),
    ...(toolUseId ? { toolUseId } : {}),
  };
  switch (event) {
    case 'beforeShellExecution': {
      const command = optional(p, 'command');
      if (!command) return { kind: 'invalid', error: 'command is missing', event };
      return { ...base, tool: 'Shell', input: { command } };
    }
    case 'beforeReadFile': {
      const path = optional(p, 'file_path');
      if (!path) return { kind: 'invalid', error: 'file_path is missing', event };
      // The file's content stays here: Gatehouse decides on the path.
      return { ...base, tool: 'Read', input: { file_path: path } };
    }
    case 'beforeMCPExecution': {
      const name = optional(p, 'tool_name');
      if (!name) return { kind: 'invalid', error: 'tool_name is missing', event };
      const server = serverName(p);
      return { ...base, tool: `MCP:${server}:${name}`, input: mcpInput(p.tool_input) };
    }
    default: {
      const name = optional(p, 'tool_name');
      if (!name) return { kind: 'invalid', error: 'tool_name is missing', event };
      if (GATED_BY_OWN_EVENT.test(name)) return { kind: 'ignore', event };
      return { ...base, tool: name, input: isRecord(p.tool_input) ? p.tool_input : {} };
    }
  }
}

/** The MCP server a call goes to, as far as the payload names it (its URL's host or its command). */
function serverName(p: JsonRecord): string {
  const url = optional(p, 'url');
  if (url) {
    try {
      return new URL(url).host.replace(/[^\w.-]/g, '_') || 'unknown';
    } catch {
      return 'unknown';
    }
  }
  const command = optional(p, 'command');
  const word = command?.trim().split(/\s+/).pop();
  return word ? word.replace(/[^\w.@/-]/g, '_').slice(0, 64) : 'unknown';
}

/**
 * Cursor's answer: `{ permission, user_message, agent_message }`; beforeReadFile takes the
 * permission alone. Cursor has no "stop the agent" answer on these events: a stop is a deny
 * whose messages say the agent is paused or killed.
 */
export function cursorAnswer(event: string, d: HookDecision): unknown {
  if (d.behavior === 'defer') return undefined;
  if (event === 'beforeReadFile') return { permission: d.behavior === 'allow' ? 'allow' : 'deny' };
  return { permission: d.behavior, user_message: d.reason, agent_message: d.reason };
}

export const cursorAdapter: AgentAdapter = {
  agent: 'cursor',
  defaults: { agent: 'cursor', label: 'Cursor', waitMs: defaultWaitMs('cursor') },
  gateEvent: 'preToolUse',
  canAsk: true,
  parse: cursorEvent,
  answer: cursorAnswer,
};
