/**
 * The adapter layer, client half (the daemon half is shared/tools/agent-tools.ts + the `gate`
 * method). How an agent hook works, for every agent:
 *
 *   agent ──stdin──▶ adapter.parse ──HookEvent──▶ relay (one `gate` round trip to the daemon)
 *        ◀─stdout── adapter.answer ◀─HookDecision── decide.ts (the Gatehouse answer, shared)
 *
 * An adapter (clients/hooks/<agent>/adapter.ts) is the small part that differs per agent:
 *  - `parse`: the agent's stdin payload → a {@link HookEvent} (a tool call to gate, an event to
 *    record, or nothing). Never throws; a payload it cannot read is `{ kind: 'invalid' }`.
 *  - `answer`: a {@link HookDecision} → the JSON the agent reads on stdout (or undefined for
 *    none). `stop: true` is pause/kill/breaker: use the agent's "stop the run" field if it has one.
 *  - `defaults`: the agent name, how long to wait for a person (below the agent's hook timeout).
 *  - `canAsk`: whether the agent has its own prompt to hand a call back to (`ask`).
 * Its installer (clients/hooks/<agent>/install.ts) fills the slot in clients/hooks/installers.ts.
 * The relay (relay.ts) does everything else: stdin, the connection, the deadline, the
 * fail-closed fallback when Gatehouse is down (shared with the offline table), stdout.
 */
import type { AgentKind } from '../../../shared/tools/agent-kinds';
import type { HookDefaults } from './hook-config';

/** How to bring Gatehouse back, in every reason that denies because it is down. */
export const START_GATEHOUSE =
  'Start Gatehouse (`gatehouse daemon`, or the desktop app: `npm start` in its folder) and try again';

/**
 * What the hook decides for a tool call. `ask` hands the decision to the agent's own prompt;
 * `defer` prints nothing, so the agent's own permission flow goes on as if there were no hook.
 */
export interface HookDecision {
  behavior: 'allow' | 'deny' | 'ask' | 'defer';
  reason: string;
  /**
   * Stop the agent altogether (a paused or killed agent, a breaker that says stop): the
   * adapter adds its agent's stop field besides the deny, so the agent ends the turn instead
   * of trying one tool after another.
   */
  stop?: boolean;
}

/** One native tool call, read from the agent's payload. */
export interface ToolCallEvent {
  kind: 'tool';
  /** The agent's event name; the answer's shape depends on it. */
  event: string;
  sessionId: string;
  tool: string;
  input: Record<string, unknown>;
  cwd?: string;
  toolUseId?: string;
  permissionMode?: string;
  transcriptPath?: string;
}

/** An event Gatehouse only records in the session (notifications, stops); may end it. */
export interface RecordEvent {
  kind: 'record';
  event: string;
  sessionId: string;
  cwd?: string;
  transcriptPath?: string;
  /** The log entry's type, e.g. `claude_code.notification`. */
  type: string;
  description: string;
  details: Record<string, unknown>;
  /** Ends the Gatehouse session with this status. */
  end?: 'completed' | 'aborted';
  /** Said on stderr when the event ends nothing. */
  note?: string;
}

export type HookEvent =
  | ToolCallEvent
  | RecordEvent
  /** An event the adapter has nothing to do for: no answer. */
  | { kind: 'ignore'; event: string }
  /** `event`: the event name when it could still be read, so the answer has its shape. */
  | { kind: 'invalid'; error: string; event?: string };

export interface AgentAdapter {
  agent: AgentKind;
  defaults: HookDefaults;
  /** The event a payload that cannot be read is answered as (the one that gates calls). */
  gateEvent: string;
  /** True when the agent has a prompt of its own to hand a call to (`ask`). */
  canAsk: boolean;
  /** Tools of the agent's own bookkeeping, known without the daemon: no answer at all. */
  isInternal?(tool: string): boolean;
  parse(text: string): HookEvent;
  answer(event: string, decision: HookDecision): unknown;
}
