import { isInternalTool } from '../../../shared/tools/claude-code-internal';
import { CLAUDE_CODE_DEFAULTS } from '../adapter/hook-config';
import type { AgentAdapter, HookEvent } from '../adapter/types';
import { answerFor } from './answer';
import { parseHookPayload, type HookPayload } from './payload';

/**
 * How a Claude Code SessionEnd `reason` ends the Gatehouse session (Claude Code 2.1.330's
 * reasons: clear, resume, logout, prompt_input_exit, other). The person leaving (exit,
 * logout) and a run ending otherwise (`other`: what `claude -p` sends when it finishes)
 * complete it; `/clear` throws the conversation away and goes on under a new session id, so
 * this one is aborted, not completed; `resume` switches to another conversation and this one
 * may be resumed under the same id, so it is only recorded and stays open, as do reasons
 * this table does not know.
 */
export function endStatus(reason: string | undefined): 'completed' | 'aborted' | undefined {
  switch (reason) {
    case 'prompt_input_exit':
    case 'logout':
    case 'other':
      return 'completed';
    case 'clear':
      return 'aborted';
    default:
      return undefined;
  }
}

const logType = (event: string): string =>
  `claude_code.${event.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()}`;

function eventDescription(p: HookPayload): string {
  switch (p.hook_event_name) {
    case 'Notification':
      return `Claude Code: ${p.message ?? 'notification'}`;
    case 'Stop':
      return 'Claude Code finished responding';
    case 'SubagentStop':
      return 'A Claude Code subagent finished';
    case 'SessionEnd':
      return `Claude Code session ended${p.reason ? ` (${p.reason})` : ''}`;
    case 'SessionStart':
      return `Claude Code session started${p.source ? ` (${p.source})` : ''}`;
    default:
      return `Claude Code event ${p.hook_event_name}`;
  }
}

function compact<T extends Record<string, unknown>>(o: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** Claude Code's payload as the adapter layer reads it. */
export function claudeCodeEvent(text: string): HookEvent {
  const parsed = parseHookPayload(text);
  if (!parsed.ok)
    return parsed.event
      ? { kind: 'invalid', error: parsed.error, event: parsed.event }
      : { kind: 'invalid', error: parsed.error };
  const p = parsed.payload;
  const event = p.hook_event_name;
  const common = compact({
    event,
    sessionId: p.session_id,
    cwd: p.cwd,
    transcriptPath: p.transcript_path,
  }) as { event: string; sessionId: string; cwd?: string; transcriptPath?: string };
  if (event === 'PreToolUse' || event === 'PermissionRequest')
    return {
      kind: 'tool',
      ...common,
      tool: p.tool_name ?? '',
      input: p.tool_input ?? {},
      ...(p.tool_use_id ? { toolUseId: p.tool_use_id } : {}),
      ...(p.permission_mode ? { permissionMode: p.permission_mode } : {}),
    };
  const end = event === 'SessionEnd' ? endStatus(p.reason) : undefined;
  return {
    kind: 'record',
    ...common,
    type: logType(event),
    description: eventDescription(p),
    details: compact({
      event,
      notificationType: p.notification_type,
      reason: p.reason,
      source: p.source,
    }),
    ...(end ? { end } : {}),
    ...(event === 'SessionEnd' && !end
      ? { note: `session ${p.reason ?? 'ended'}: kept open, it may go on` }
      : {}),
  };
}

/** Claude Code: command hooks in .claude/settings.json, PreToolUse (or PermissionRequest). */
export const claudeCodeAdapter: AgentAdapter = {
  agent: 'claude-code',
  defaults: CLAUDE_CODE_DEFAULTS,
  gateEvent: 'PreToolUse',
  canAsk: true,
  isInternal: isInternalTool,
  parse: claudeCodeEvent,
  answer: answerFor,
};
