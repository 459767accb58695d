import { isInternalTool } from '../../../tools/claude-code-internal';
import { CLAUDE_CODE_DEFAULTS } from '../relay/hook-config';
import { endStatus } from '../relay/session-end';
import type { AgentAdapter, HookEvent } from '../relay/types';
import { answerFor } from './answer';
import { parseHookPayload, type HookPayload } from './payload';
import { claudeSandboxInput } from './sandbox';

export { endStatus } from '../relay/session-end';

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
  sandboxInput: claudeSandboxInput,
  takesUpdatedInput: (event) => event === 'PreToolUse',
};
