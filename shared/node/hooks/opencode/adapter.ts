import { defaultWaitMs } from '../relay/wait-defaults';
import { checkPayload, invalidPayload, isRecord, optional } from '../relay/payload-check';
import type { AgentAdapter, HookDecision, HookEvent } from '../relay/types';

/** The plugin hook that gates OpenCode's tool calls. */
export const OPENCODE_GATE_EVENT = 'tool.execute.before';

/**
 * What Gatehouse's OpenCode plugin (plugin-source.ts) sends the relay on stdin for each
 * `tool.execute.before`: OpenCode's input (`tool`, `sessionID`, `callID`), its output's
 * `args`, and the plugin's `directory` (the project). A bash call's `workdir` is part of the
 * call (opencode-tools.ts): the daemon resolves it against `directory`, so an edited call
 * that drops or changes it is judged where it will run.
 */
export function opencodeEvent(text: string): HookEvent {
  const checked = checkPayload(text, {
    strings: ['event'],
    optionalStrings: ['tool', 'sessionID', 'callID', 'directory'],
    objects: ['args'],
  });
  if (!checked.ok) return invalidPayload(text, checked.error, 'event');
  const p = checked.value;
  const event = p.event as string;
  if (event !== OPENCODE_GATE_EVENT) return { kind: 'ignore', event };
  const sessionId = optional(p, 'sessionID');
  const tool = optional(p, 'tool');
  if (!sessionId) return { kind: 'invalid', error: 'sessionID is missing', event };
  if (!tool) return { kind: 'invalid', error: `${event} without tool`, event };
  const args = isRecord(p.args) ? p.args : {};
  const cwd = optional(p, 'directory');
  const callId = optional(p, 'callID');
  return {
    kind: 'tool',
    event,
    sessionId,
    tool,
    input: args,
    ...(cwd ? { cwd } : {}),
    ...(callId ? { toolUseId: callId } : {}),
  };
}

/** What the relay prints for the plugin: it throws on `deny`, and aborts the session on `stop`. */
export interface OpencodeAnswer {
  decision: 'allow' | 'deny' | 'defer';
  reason: string;
  stop?: true;
  /**
   * With `allow`: the arguments the tool runs with instead (an edited call). The plugin puts
   * them in place of `output.args`' contents: OpenCode executes that very object.
   */
  args?: Record<string, unknown>;
  /**
   * With a person's `allow`: their approval and note. The plugin adds it to the tool's output
   * (tool.execute.after), which is what the model reads next.
   */
  note?: string;
}

/**
 * The plugin always gets an answer (an empty one means the relay failed, and the plugin
 * denies): `defer` lets OpenCode's own permission flow go on, like `allow` without Gatehouse's
 * say-so. OpenCode has no prompt the plugin could hand a call to, so `ask` is a deny.
 */
export function opencodeAnswer(_event: string, d: HookDecision): OpencodeAnswer {
  const decision = d.behavior === 'allow' || d.behavior === 'defer' ? d.behavior : 'deny';
  if (d.stop) return { decision: 'deny', reason: d.reason, stop: true };
  const note = decision === 'allow' && d.byPerson ? { note: d.reason } : {};
  return decision === 'allow' && d.updatedInput
    ? { decision, reason: d.reason, args: d.updatedInput, ...note }
    : { decision, reason: d.reason, ...note };
}

export const opencodeAdapter: AgentAdapter = {
  agent: 'opencode',
  defaults: { agent: 'opencode', label: 'OpenCode', waitMs: defaultWaitMs('opencode') },
  gateEvent: OPENCODE_GATE_EVENT,
  canAsk: false,
  parse: opencodeEvent,
  answer: opencodeAnswer,
  // OpenCode runs the tool with the args object the plugin was handed, changed in place
  // (opencode-cli.test.ts: an edited push).
  takesUpdatedInput: (event) => event === OPENCODE_GATE_EVENT,
};
