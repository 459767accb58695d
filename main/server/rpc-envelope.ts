/** A JSON-RPC id: a string, a number, or null (docs/protocol.md). */
export type Id = string | number | null;

export interface Envelope {
  method: string;
  id?: Id;
  params?: Record<string, unknown> | unknown[];
}

/**
 * The JSON-RPC 2.0 envelope of a parsed line, or undefined when it is not one: `jsonrpc`
 * "2.0", a non-empty `method`, an `id` that is a string, a number or null when present, and
 * `params` an object or an array when present (checked for shape only: each method's own
 * schema parses them). Written out rather than a zod schema: it runs on every call, and a
 * schema cost a microsecond and a copy of the message each time (profiled).
 */
export function envelopeOf(raw: unknown): Envelope | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  if (m.jsonrpc !== '2.0' || typeof m.method !== 'string' || m.method.length === 0)
    return undefined;
  const { id, params } = m;
  if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number')
    return undefined;
  if (params !== undefined && (typeof params !== 'object' || params === null)) return undefined;
  return m as unknown as Envelope;
}
