import { MAX_CONTEXT_BYTES } from '../../shared/protocol/constants';
import type { AgentParams } from '../../shared/protocol/method-map';

/** What `classify` and `request` share: the action and what it names. */
type ActionParams = AgentParams<'classify'> | AgentParams<'request'>;

/** The daemon's limits on the fields of an action (shared/protocol/agent-methods.ts). */
const LIMITS = { command: 65_536, target: 4096, path: 4096, paths: 1000, text: 8192 } as const;
/** How much of each clipped field is sent, for the person to see the start of it. */
const CLIPPED = 2048;

/** The params' size as JSON, when some field is over what the daemon parses; else undefined. */
function oversizeOf(p: ActionParams): number | undefined {
  const over =
    (p.command?.length ?? 0) > LIMITS.command ||
    (p.target?.length ?? 0) > LIMITS.target ||
    (p.paths?.length ?? 0) > LIMITS.paths ||
    (p.paths ?? []).some((x) => x.length > LIMITS.path) ||
    ('description' in p && p.description.length > LIMITS.text) ||
    ('rationale' in p && (p.rationale?.length ?? 0) > LIMITS.text) ||
    ('context' in p &&
      p.context !== undefined &&
      JSON.stringify(p.context).length > MAX_CONTEXT_BYTES);
  return over ? JSON.stringify(p).length : undefined;
}

const clip = (s: string): string => (s.length > CLIPPED ? `${s.slice(0, CLIPPED - 1)}…` : s);

/**
 * The params as sent: an action larger than Gatehouse parses goes clipped, with its full size
 * as `oversize`, and Gatehouse answers it as the hook's oversize calls are answered
 * (`protected:too_large`, always asks) instead of refusing the message with a schema error.
 * The person sees the start of each field.
 */
export function sizedParams<P extends ActionParams>(p: P): P {
  const size = oversizeOf(p);
  if (size === undefined) return p;
  const out: ActionParams = { ...p, oversize: size };
  if (p.command !== undefined) out.command = clip(p.command);
  if (p.target !== undefined) out.target = clip(p.target);
  if (p.paths) out.paths = p.paths.slice(0, 16).map(clip);
  if ('description' in out) {
    out.description = clip(out.description);
    if (out.rationale !== undefined) out.rationale = clip(out.rationale);
    if (out.context !== undefined) out.context = { clipped: `${size} bytes in all` };
  }
  return out as P;
}
