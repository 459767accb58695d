import { agentEnvironmentParams } from './agent-environment';
import type { AgentResult } from '../../../protocol/method-map';
import { MAX_CONTEXT_BYTES } from '../../../protocol/constants';
import { ErrorCode } from '../../../protocol/errors';
import { RpcError } from '../../rpc/rpc-errors';
import { answeredErrorDecision, fallbackFor } from './fallback';
import type { HookConfig } from './hook-config';
import type {
  AgentAdapter,
  CallResultEvent,
  HookDecision,
  RecordEvent,
  ToolCallEvent,
} from './types';

/** What the hook prints: the decision for the adapter to shape (or none), and notes for stderr. */
export interface HookOutcome {
  decision?: HookDecision;
  notes: string[];
  /** A person's approval note for a call that ran, for the adapter's `noteAnswer`. */
  callNote?: string;
}

import type { HookLink } from './relay-link';

export type { HookLink } from './relay-link';

export interface DecideDeps {
  adapter: AgentAdapter;
  config: HookConfig;
  /** Opens the Gatehouse session of this agent session (hello with its session id). */
  connect: (e: ToolCallEvent | RecordEvent | CallResultEvent) => Promise<HookLink>;
  /** The hook's environment: where Gatehouse's own files are, for the offline table. */
  env: NodeJS.ProcessEnv;
}

/** Gates one tool call against Gatehouse. Never throws: a failure is the fallback, with a note. */
export async function decideToolCall(call: ToolCallEvent, deps: DecideDeps): Promise<HookOutcome> {
  const { adapter, config } = deps;
  // The agent's own bookkeeping tools: no answer, so its normal flow goes on.
  if (adapter.isInternal?.(call.tool, call.input)) return { notes: [] };
  const notes: string[] = [];
  const finish = (decision: HookDecision): HookOutcome => ({
    decision: withSandboxInput(decision, call, adapter),
    notes,
  });
  // Gatehouse's own files are the daemon's to guard (critical, always asks); without the
  // daemon the built-in table refuses them (offline-decision.ts).
  const fallback = (why: string) => fallbackFor(adapter, call, config, deps.env, why);
  const unreachable = async (error: unknown): Promise<HookOutcome> => {
    if (isStop(error)) return finish(stopDecision(message(error)));
    const why = `cannot reach Gatehouse (${message(error)})`;
    notes.push(why);
    return finish(await fallback(why));
  };
  let link: HookLink;
  try {
    link = await deps.connect(call);
  } catch (error) {
    return unreachable(error);
  }
  try {
    // One round trip, written right behind the hello: the daemon maps, classifies and
    // decides the call warm (the gate method).
    const sized = sizedInput(call.input);
    const gated = link.gate({
      client: adapter.agent,
      event: call.event.slice(0, 64),
      tool: call.tool.slice(0, 256) || 'unknown',
      ...sized,
      wait: true,
      timeoutMs: config.waitMs,
      ...(call.toolUseId ? { toolUseId: call.toolUseId.slice(0, 256) } : {}),
      ...(call.cwd ? { cwd: call.cwd } : {}),
      ...(call.permissionMode ? { permissionMode: call.permissionMode.slice(0, 64) } : {}),
      mcp: call.mcp,
      // The answer cannot carry a person's note: Gatehouse keeps it for the call's result.
      ...(adapter.noteAnswer ? { keepNote: true as const } : {}),
      ...agentEnvironmentParams(deps.env, config.secretVariables),
    });
    // A failed hello fails the call behind it (no session): the hello's error is the reason.
    gated.catch(() => undefined);
    try {
      await link.greeted;
    } catch (error) {
      return await unreachable(error);
    }
    const answer = await gated;
    return finish(await decisionFor(answer, call.event, link, adapter, config, notes));
  } catch (error) {
    // A paused or killed agent is stopped: that is a human's no, not a failure.
    if (isStop(error)) return finish(stopDecision(message(error)));
    if (error instanceof RpcError) {
      // Gatehouse is there and refused to judge this call (its own fault, a limit, bad
      // params). The built-in table is for a Gatehouse that is not there: it knows none of
      // the person's rules, the project's restrictions or the files a test run loads, so a
      // call that makes the daemon fail must not get the table's weaker answer.
      const why = `Gatehouse answered with an error (${message(error)})`;
      notes.push(why);
      return finish(answeredErrorDecision(adapter, config, why));
    }
    const why = `Gatehouse did not answer (${message(error)})`;
    notes.push(why);
    return finish(await fallback(why));
  } finally {
    link.close();
  }
}

/**
 * The tool input as sent: larger than Gatehouse parses, it goes clipped with its full size,
 * and Gatehouse asks a person ("too large to check") instead of refusing the message, which
 * would leave the call to the offline table.
 */
export function sizedInput(input: Record<string, unknown>): {
  input: Record<string, unknown>;
  oversize?: number;
} {
  const size = JSON.stringify(input).length;
  if (size <= MAX_CONTEXT_BYTES) return { input };
  const clipped: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input).slice(0, 16))
    if (typeof v === 'string') clipped[k.slice(0, 64)] = v.slice(0, CLIPPED_FIELD);
  return { input: clipped, oversize: size };
}
/** How much of each text field of an oversize input is sent. */
const CLIPPED_FIELD = 2048;

/** The one place a Gatehouse `gate` answer becomes a hook decision, for every agent. */
async function decisionFor(
  answer: AgentResult<'gate'>,
  event: string,
  link: HookLink,
  adapter: AgentAdapter,
  config: HookConfig,
  notes: string[],
): Promise<HookDecision> {
  if (answer.stop) return stopDecision(answer.stop.reason);
  switch (answer.outcome) {
    case 'allow': {
      const allow: HookDecision = {
        behavior: 'allow',
        reason: answer.reason,
        ...(answer.outsideSandbox ? { outsideSandbox: true as const } : {}),
        ...(answer.decidedBy === 'human' ? { byPerson: true as const } : {}),
      };
      if (answer.updatedInput === undefined) return allow;
      // An edited call: allowed only as edited; an agent that would run its own call instead
      // is refused, so what runs is never other than what the person approved.
      return adapter.takesUpdatedInput?.(event) === true
        ? { ...allow, updatedInput: answer.updatedInput }
        : {
            behavior: 'deny',
            reason: `Gatehouse: the person approved an edited call that ${adapter.agent} cannot run here; ask again`,
          };
    }
    case 'deny':
      return { behavior: 'deny', reason: answer.reason };
    case 'none':
      return { behavior: 'defer', reason: answer.reason };
    case 'pending': {
      const id = answer.requestId ?? '';
      const asking = answer.actions.filter((a) => a.tier === 'ask');
      const action = (asking.find((a) => a.risk === 'critical') ?? asking[0])?.action ?? 'the call';
      const seconds = +(config.waitMs / 1000).toFixed(config.waitMs < 10_000 ? 1 : 0);
      const late = `no decision on ${action} within ${seconds} s`;
      // Without a prompt of the agent's own, the call is refused and stays in the queue.
      if (config.fallback === 'deny' || !adapter.canAsk) {
        return {
          behavior: 'deny',
          reason: `Gatehouse: ${late}; request ${id} stays in the queue and an approval there lets the same call through next time`,
        };
      }
      // The agent's own prompt takes over (by default, and with `ask`; with `defer` its own
      // flow): withdraw the request so no one decides it twice.
      await link
        .cancel(id)
        .catch((error: unknown) => notes.push(`could not withdraw ${id}: ${message(error)}`));
      const withdrawn = `${late} (request ${id} withdrawn)`;
      return config.fallback === 'defer'
        ? {
            behavior: 'defer',
            reason: `Gatehouse: ${withdrawn}; leaving the call to ${adapter.defaults.label} (GATEHOUSE_HOOK_FALLBACK=defer)`,
          }
        : {
            behavior: 'ask',
            reason: `Gatehouse: ${withdrawn}; asking in ${adapter.defaults.label} instead`,
          };
    }
  }
}

/**
 * An allowed call with the input its agent runs: outside the sandbox only with a person's
 * word, and never because the agent asked (the offline table's allow included).
 */
function withSandboxInput(
  decision: HookDecision,
  call: ToolCallEvent,
  adapter: AgentAdapter,
): HookDecision {
  if (decision.behavior !== 'allow' || !adapter.sandboxInput) return decision;
  // An edited call keeps its edit; the sandbox is then decided for what will really run.
  const base = decision.updatedInput ?? call.input;
  const input = adapter.sandboxInput(call.tool, base, decision.outsideSandbox === true);
  return input ? { ...decision, updatedInput: input } : decision;
}

/** Stops the agent (its adapter's stop field) and refuses the call, with Gatehouse's reason. */
export function stopDecision(why: string): HookDecision {
  const reason = why.startsWith('Gatehouse says stop') ? why : `Gatehouse says stop: ${why}`;
  return { behavior: 'deny', reason, stop: true };
}

/** Records an event in the agent's session, and ends the session when the event says so. */
export async function recordEvent(e: RecordEvent, deps: DecideDeps): Promise<HookOutcome> {
  const notes: string[] = [];
  let link: HookLink | undefined;
  try {
    link = await deps.connect(e);
    // Written behind the hello, like the gate call; the hello's error is the reason.
    const logged = link.log({ type: e.type, description: e.description, details: e.details });
    logged.catch(() => undefined);
    await link.greeted;
    await logged;
    if (e.end) {
      const { summary } = await link.end(e.end);
      notes.push(summary.text);
    } else if (e.note) {
      notes.push(e.note);
    }
  } catch (error) {
    notes.push(`could not record ${e.event} in Gatehouse (${message(error)})`);
  } finally {
    link?.close();
  }
  return { notes };
}

const isStop = (error: unknown): boolean =>
  error instanceof RpcError && error.code === ErrorCode.AgentPaused;

export const message = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
