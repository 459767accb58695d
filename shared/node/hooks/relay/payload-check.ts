import type { HookEvent, ToolCallEvent } from './types';

/**
 * A small declarative check for hook payloads. Not zod: the hook process starts for every
 * tool call and loading zod alone costs more than the rest of the relay (measured in
 * bench/hook-latency.bench.mjs); the daemon validates the `gate` call with zod again.
 */
export type JsonRecord = Record<string, unknown>;

export const isRecord = (v: unknown): v is JsonRecord =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export interface PayloadShape {
  /** Fields that must be non-empty strings. */
  strings?: readonly string[];
  /** Fields that, when present (and not null), must be strings. */
  optionalStrings?: readonly string[];
  /** Fields that, when present, must be JSON objects. */
  objects?: readonly string[];
}

export type Checked = { ok: true; value: JsonRecord } | { ok: false; error: string };

/** Parses `text` as a JSON object; never throws. */
export function parsePayloadObject(text: string): Checked {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      error: `the hook payload is not JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (!isRecord(raw)) return { ok: false, error: 'the hook payload is not a JSON object' };
  return { ok: true, value: raw };
}

/** Parses `text` as a JSON object and checks it against `shape`; never throws. */
export function checkPayload(text: string, shape: PayloadShape): Checked {
  const parsed = parsePayloadObject(text);
  if (!parsed.ok) return parsed;
  const raw = parsed.value;
  for (const key of shape.strings ?? [])
    if (typeof raw[key] !== 'string' || !raw[key]) return { ok: false, error: `${key} is missing` };
  for (const key of shape.optionalStrings ?? [])
    if (raw[key] !== undefined && raw[key] !== null && typeof raw[key] !== 'string')
      return { ok: false, error: `${key} must be a string` };
  for (const key of shape.objects ?? [])
    if (raw[key] !== undefined && !isRecord(raw[key]))
      return { ok: false, error: `${key} must be an object` };
  return { ok: true, value: raw };
}

/** The string at `key`, or undefined (null and empty strings included). */
export const optional = (o: JsonRecord, key: string): string | undefined => {
  const v = o[key];
  return typeof v === 'string' && v ? v : undefined;
};

/**
 * The answer to a payload that failed its check: the event name when the text still shows
 * one under `eventKey`, so the answer can take that event's shape.
 */
export function invalidPayload(
  text: string,
  error: string,
  eventKey: string,
): { kind: 'invalid'; error: string; event?: string } {
  const event = new RegExp(`"${eventKey}"\\s*:\\s*"([\\w.]+)"`).exec(text)?.[1];
  return event ? { kind: 'invalid', error, event } : { kind: 'invalid', error };
}

/**
 * A tool call from a payload in the snake_case shape Codex and Gemini CLI share (`session_id`,
 * `tool_name`, `tool_input`, `cwd`, `transcript_path`); each adds its own fields to the result.
 */
export function snakeCaseToolCall(
  event: string,
  p: JsonRecord,
): ToolCallEvent | Extract<HookEvent, { kind: 'invalid' }> {
  const sessionId = optional(p, 'session_id');
  const tool = optional(p, 'tool_name');
  if (!sessionId) return { kind: 'invalid', error: 'session_id is missing', event };
  if (!tool) return { kind: 'invalid', error: `${event} without tool_name`, event };
  const cwd = optional(p, 'cwd');
  const transcriptPath = optional(p, 'transcript_path');
  return {
    kind: 'tool',
    event,
    sessionId,
    tool,
    input: isRecord(p.tool_input) ? p.tool_input : {},
    ...(cwd ? { cwd } : {}),
    ...(transcriptPath ? { transcriptPath } : {}),
  };
}
