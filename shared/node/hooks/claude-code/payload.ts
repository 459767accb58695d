import { parsePayloadObject } from '../relay/payload-check';

/**
 * The JSON Claude Code writes on a command hook's stdin. Validated by hand rather than with
 * zod: the hook runs before every tool call and loading zod alone costs more than the rest of
 * the hook (measured in bench/hook-latency.bench.mjs), so this boundary uses plain guards.
 */
export interface HookPayload {
  session_id: string;
  hook_event_name: string;
  transcript_path?: string;
  cwd?: string;
  permission_mode?: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  tool_use_id?: string;
  /** Notification */
  message?: string;
  notification_type?: string;
  /** SessionEnd */
  reason?: string;
  /** Stop */
  stop_hook_active?: boolean;
  /** SessionStart */
  source?: string;
}

export type ParsedPayload =
  | { ok: true; payload: HookPayload }
  /** `event` is the event name when it could still be read, so the answer has its shape. */
  | { ok: false; error: string; event?: string };

const OPTIONAL_STRINGS = [
  'transcript_path',
  'cwd',
  'permission_mode',
  'tool_name',
  'tool_use_id',
  'message',
  'notification_type',
  'reason',
  'source',
] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses and checks a payload; never throws. */
export function parseHookPayload(text: string): ParsedPayload {
  const parsed = parsePayloadObject(text);
  if (!parsed.ok) return parsed;
  const raw = parsed.value;
  const event = typeof raw.hook_event_name === 'string' ? raw.hook_event_name : undefined;
  const fail = (error: string): ParsedPayload =>
    event ? { ok: false, error, event } : { ok: false, error };
  if (!event) return fail('hook_event_name is missing');
  if (typeof raw.session_id !== 'string' || !raw.session_id) return fail('session_id is missing');
  for (const key of OPTIONAL_STRINGS) {
    if (raw[key] !== undefined && typeof raw[key] !== 'string')
      return fail(`${key} must be a string`);
  }
  if (raw.tool_input !== undefined && !isObject(raw.tool_input))
    return fail('tool_input must be an object');
  if (
    (event === 'PreToolUse' || event === 'PermissionRequest') &&
    typeof raw.tool_name !== 'string'
  ) {
    return fail(`${event} without tool_name`);
  }
  return { ok: true, payload: raw as unknown as HookPayload };
}
