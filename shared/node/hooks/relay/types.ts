/**
 * The adapter layer, hook half (the daemon half is shared/tools/agent-tools.ts + the `gate`
 * method). It lives in shared/node/ because two processes run it: the hook process of every
 * tool call (clients/hooks/hook-main.ts) and the daemon, which hosts the same relay for
 * Claude Code's http hook (main/server/hook-http-start.ts). How an agent hook works, for
 * every agent:
 *
 *   agent ──stdin──▶ adapter.parse ──HookEvent──▶ relay (one `gate` round trip to the daemon)
 *        ◀─stdout── adapter.answer ◀─HookDecision── decide.ts (the Gatehouse answer, shared)
 *
 * To add an agent, four small pieces, each registered in one place:
 *  1. its tool table, shared/tools/<agent>-tools.ts (built with tool-mapping.ts: shell tools →
 *     shellCall, file tools → fileCall with the path, MCP tools → mcpCall), in agent-tools.ts;
 *  2. its adapter, shared/node/hooks/<agent>/adapter.ts, an {@link AgentAdapter}, in
 *     ../adapters.ts:
 *     - `parse`: the agent's stdin payload → a {@link HookEvent} (a tool call to gate, an event
 *       to record, or nothing). Never throws; what it cannot read is `{ kind: 'invalid' }`
 *       (payload-check.ts checks the shape without zod, which the hook cannot afford);
 *     - `answer`: a {@link HookDecision} → the JSON the agent reads on stdout (undefined for
 *       none). `stop: true` is pause/kill/breaker: the agent's "stop the run" field if it has
 *       one that it accepts (Codex 0.169 runs the call when its hook prints one it does not);
 *     - `defaults` (the wait: wait-defaults.ts, below the agent's hook timeout), `canAsk`
 *       (a prompt of its own that a timed-out wait hands the call to);
 *  3. its installer, clients/hooks/<agent>/installer.ts, a HookInstaller
 *     (clients/hooks/install/installer.ts; hook-groups.ts and json-file.ts merge and remove
 *     exactly our entries, hook-command.ts builds the command), in clients/hooks/installers.ts;
 *  4. its page in docs/agents/ and a row in docs/agents/README.md ("Guard other agents").
 * The relay (relay.ts) does everything else: stdin, the one connection (relay-link.ts), the
 * deadline, the fail-closed fallback when Gatehouse is down (fallback.ts, with the offline
 * table), the decision (decide.ts), stdout, exit 0.
 */
import type { AgentKind } from '../../../tools/agent-kinds';
import type { McpToolRef } from '../../../tools/tool-mapping';
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
  /** An allow a person gave (the gate's `outsideSandbox`): the call may leave the agent's sandbox. */
  outsideSandbox?: true;
  /**
   * The tool input the agent runs instead of its own: the call as the person edited it, then
   * with the adapter's `sandboxInput` applied.
   */
  updatedInput?: Record<string, unknown>;
  /**
   * An allow a person gave by deciding the request: `reason` then carries their note, which
   * an adapter whose agent can show the model extra text on an allowed call passes on (Claude
   * Code's, Codex's and Copilot CLI's `additionalContext`, OpenCode's plugin adding it to the
   * tool's output). Gemini CLI's BeforeTool has no such field: Gatehouse keeps the note for
   * its AfterTool hook ({@link AgentAdapter.noteAnswer}).
   */
  byPerson?: true;
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
  /**
   * The agent session's directory, when the agent reports a call's own directory as `cwd`
   * (Codex: a shell call's `workdir`): the session's project, which the call cannot move.
   */
  project?: string;
  toolUseId?: string;
  permissionMode?: string;
  transcriptPath?: string;
  /** An MCP tool's server and name, when the agent reports them apart from `tool`. */
  mcp?: McpToolRef;
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

/**
 * A tool call that ran (Gemini CLI's AfterTool): the relay asks Gatehouse for the note of a
 * person's approval of it (`note`), which the adapter gives the model with the call's result.
 */
export interface CallResultEvent {
  kind: 'result';
  event: string;
  sessionId: string;
  tool: string;
  input: Record<string, unknown>;
  cwd?: string;
  transcriptPath?: string;
}

export type HookEvent =
  | ToolCallEvent
  | RecordEvent
  | CallResultEvent
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
  isInternal?(tool: string, input?: Record<string, unknown>): boolean;
  parse(text: string): HookEvent;
  answer(event: string, decision: HookDecision): unknown;
  /**
   * For an agent with an OS sandbox that a call's input can ask to leave: the input to run
   * instead for an allowed call. `outside` (a person allowed it) takes the call out of the
   * sandbox; without it, a request of the agent's own to leave is taken out. Undefined: the
   * input runs as it is.
   */
  sandboxInput?(
    tool: string,
    input: Record<string, unknown>,
    outside: boolean,
  ): Record<string, unknown> | undefined;

  /**
   * True when the agent runs an edited input given in the answer to `event` (Claude Code's
   * PreToolUse `updatedInput`). Without it, an approval of an edited call is refused here:
   * the agent would run its own call, not the one approved.
   */
  takesUpdatedInput?(event: string): boolean;

  /**
   * For an agent whose answer that allows a call cannot carry a person's note to the model
   * (Gemini CLI's BeforeTool): the answer to a {@link CallResultEvent} that adds `note` to the
   * call's result. With it, the gate asks Gatehouse to keep the note (`keepNote`).
   */
  noteAnswer?(event: string, note: string): unknown;
}
