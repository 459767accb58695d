/**
 * What the OpenCode bridge reads from `opencode serve`: its `permission.asked` events (1.18.33,
 * `GET /event`, server-sent events whose `data:` lines are JSON) and how one becomes a tool
 * call for Gatehouse's OpenCode tool table. Pure, so every mapping is unit-tested.
 */
export interface PermissionAsked {
  /** `per_…`: what `POST /permission/{id}/reply` answers. */
  id: string;
  sessionID: string;
  /** The permission OpenCode asks for: `bash`, `edit`, `read`, `webfetch`, `external_directory`, … */
  permission: string;
  patterns: string[];
  metadata: Record<string, unknown>;
  /** The tool call that asked, when a tool did. */
  callID?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A `permission.asked` event from one SSE `data:` payload, or undefined for any other event. */
export function permissionAskedOf(data: string): PermissionAsked | undefined {
  let event: unknown;
  try {
    event = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (!isRecord(event) || event.type !== 'permission.asked') return undefined;
  const p = event.properties;
  if (!isRecord(p) || typeof p.id !== 'string' || typeof p.sessionID !== 'string') return undefined;
  if (typeof p.permission !== 'string' || !p.permission) return undefined;
  const patterns = Array.isArray(p.patterns)
    ? p.patterns.filter((x): x is string => typeof x === 'string')
    : [];
  const tool = isRecord(p.tool) ? p.tool : {};
  return {
    id: p.id,
    sessionID: p.sessionID,
    permission: p.permission,
    patterns,
    metadata: isRecord(p.metadata) ? p.metadata : {},
    ...(typeof tool.callID === 'string' ? { callID: tool.callID } : {}),
  };
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/**
 * The OpenCode tool call a permission stands for, in the tool table's terms: `bash` with
 * its command, the file tools with their path, `webfetch` with its URL. A permission the
 * table does not know (`external_directory`, a plugin's own) keeps its name and patterns,
 * which asks.
 */
export function toolCallOf(a: PermissionAsked): { tool: string; input: Record<string, unknown> } {
  const first = a.patterns[0];
  switch (a.permission) {
    case 'bash':
      return {
        tool: 'bash',
        input: { command: text(a.metadata.command) ?? a.patterns.join('\n') },
      };
    case 'edit':
    case 'write':
    case 'read': {
      const filePath = text(a.metadata.filepath) ?? text(a.metadata.filePath) ?? first;
      return { tool: a.permission, input: filePath ? { filePath } : {} };
    }
    case 'webfetch': {
      const url = text(a.metadata.url) ?? first;
      return { tool: 'webfetch', input: url ? { url } : {} };
    }
    default:
      return { tool: a.permission, input: { patterns: a.patterns, metadata: a.metadata } };
  }
}

/** Splits a server-sent event stream into its `data:` payloads; keeps the unfinished tail. */
export function sseData(buffer: string): { events: string[]; rest: string } {
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? '';
  const events: string[] = [];
  for (const block of blocks) {
    const data = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data) events.push(data);
  }
  return { events, rest };
}
