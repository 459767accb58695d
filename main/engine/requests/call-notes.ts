import type { Clock } from '../../../shared/clock';

/** How long a note waits for its call's result: a call runs soon after it is allowed. */
const NOTE_TTL_MS = 10 * 60_000;
/** Notes kept per session at most: the oldest goes first (only a note is lost). */
const MAX_NOTES_PER_SESSION = 16;

interface KeptNote {
  key: string;
  note: string;
  at: number;
}

/**
 * The notes of people's approvals waiting for their call's result, for agents whose hook
 * cannot show the model a note with the answer that allows the call (Gemini CLI: its
 * AfterTool hook asks for it, `note`). Kept in memory only: a note is lost with a restart of
 * the daemon between the call's approval and its result, and is still in the request and its
 * audit entry. A call is known by its session, tool and input, as the agent reports them
 * before and after the call (Gemini CLI has no call id); the note is handed out once.
 */
export class CallNotes {
  private readonly bySession = new Map<string, KeptNote[]>();

  constructor(private readonly clock: Clock) {}

  keep(sessionId: string, tool: string, input: Record<string, unknown>, note: string): void {
    const now = this.clock.now();
    const kept = this.fresh(sessionId, now);
    kept.push({ key: callKey(tool, input), note, at: now });
    if (kept.length > MAX_NOTES_PER_SESSION) kept.shift();
    this.bySession.set(sessionId, kept);
  }

  /** The note kept for this call of the session, taken out; undefined when there is none. */
  take(sessionId: string, tool: string, input: Record<string, unknown>): string | undefined {
    if (!this.bySession.has(sessionId)) return undefined;
    const kept = this.fresh(sessionId, this.clock.now());
    const key = callKey(tool, input);
    const at = kept.findIndex((k) => k.key === key);
    const [found] = at < 0 ? [] : kept.splice(at, 1);
    if (kept.length) this.bySession.set(sessionId, kept);
    else this.bySession.delete(sessionId);
    return found?.note;
  }

  private fresh(sessionId: string, now: number): KeptNote[] {
    return (this.bySession.get(sessionId) ?? []).filter((k) => now - k.at < NOTE_TTL_MS);
  }
}

/** A call's tool and input as one string, the same whatever order the input's keys come in. */
function callKey(tool: string, input: Record<string, unknown>): string {
  return `${tool}\n${canonical(input)}`;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
