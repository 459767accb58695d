import type { AgentResult } from '../../../shared/protocol/method-map';
import { ErrorCode } from '../../../shared/protocol/errors';
import type { GatehouseClient } from '../../sdk/client';
import { RpcError } from '../../sdk/rpc-client';
import type { ActionSpec } from './action-spec';
import { answerFor, type HookAnswer, type HookDecision } from './answer';
import type { HookConfig } from './hook-config';
import {
  gatehouseFileIn,
  offlineDecision,
  START_GATEHOUSE,
  type OfflineCall,
} from './offline-decision';
import type { HookPayload } from './payload';
import { toolAction } from './tool-action';

/** What the hook prints: JSON on stdout (or nothing) and explanations on stderr. */
export interface HookOutcome {
  answer?: HookAnswer;
  notes: string[];
}

export interface HandleDeps {
  config: HookConfig;
  /** Opens the session of this Claude Code session (hello with its session_id). */
  connect: (payload: HookPayload) => Promise<GatehouseClient>;
  /** The hook's environment: where Gatehouse's own files are, for the offline table. */
  env: NodeJS.ProcessEnv;
}

const PAUSED = 'GATEHOUSE_ERROR -32003';

/**
 * The answer when Gatehouse cannot decide, with why (see `Fallback` in hook-config.ts). With
 * the default, `call` (the tool call, when it could be read) is judged by the built-in table;
 * without it the call is denied.
 */
export function fallbackDecision(
  config: HookConfig,
  why: string,
  call?: OfflineCall,
  offline?: { cwd?: string; env: NodeJS.ProcessEnv },
): HookDecision {
  switch (config.fallback) {
    case 'builtin':
      return call && offline
        ? offlineDecision(call, offline, why)
        : {
            behavior: 'deny',
            reason: `Gatehouse: ${why}, so the call is denied. ${START_GATEHOUSE}.`,
          };
    case 'deny':
      return {
        behavior: 'deny',
        reason: `Gatehouse: ${why}; denying (GATEHOUSE_HOOK_FALLBACK=deny). ${START_GATEHOUSE}.`,
      };
    case 'ask':
      return { behavior: 'ask', reason: `Gatehouse: ${why}; asking in Claude Code instead` };
    case 'defer':
      return {
        behavior: 'defer',
        reason: `Gatehouse: ${why}; leaving the call to Claude Code (GATEHOUSE_HOOK_FALLBACK=defer)`,
      };
  }
}

/** The fallback for a payload's tool call, judged by the built-in table where that applies. */
export function fallbackFor(
  payload: HookPayload,
  config: HookConfig,
  env: NodeJS.ProcessEnv,
  why: string,
): HookDecision {
  const mapping = toolAction(payload.tool_name ?? '', payload.tool_input ?? {});
  if (mapping.kind === 'internal') return { behavior: 'defer', reason: 'internal tool' };
  return fallbackDecision(config, why, mapping, { cwd: payload.cwd, env });
}

/**
 * Handles one Claude Code hook event against Gatehouse. Never throws: any failure becomes the
 * configured fallback with a note for stderr.
 */
export async function handleHookEvent(
  payload: HookPayload,
  deps: HandleDeps,
): Promise<HookOutcome> {
  const event = payload.hook_event_name;
  if (event === 'PreToolUse' || event === 'PermissionRequest') return decideToolUse(payload, deps);
  return recordEvent(payload, deps);
}

async function decideToolUse(payload: HookPayload, deps: HandleDeps): Promise<HookOutcome> {
  const { config } = deps;
  const event = payload.hook_event_name;
  const mapping = toolAction(payload.tool_name ?? '', payload.tool_input ?? {});
  // Claude Code's own bookkeeping tools: no answer, so its normal flow goes on.
  if (mapping.kind === 'internal') return { notes: [] };
  const notes: string[] = [];
  const finish = (d: HookDecision): HookOutcome => ({ answer: answerFor(event, d), notes });
  const fallback = (why: string) =>
    fallbackDecision(config, why, mapping, { cwd: payload.cwd, env: deps.env });
  const own = gatehouseFileIn(mapping.candidates, { cwd: payload.cwd, env: deps.env });
  if (own !== undefined) {
    // Recorded in the session (best effort) so the person sees the attempt.
    await deps
      .connect(payload)
      .then(async (c) => {
        try {
          await c.log({
            type: 'claude_code.gatehouse_file_refused',
            description: `Refused ${mapping.description}: Gatehouse's own files`,
            details: compact({
              tool: payload.tool_name,
              toolUseId: payload.tool_use_id,
              path: own,
            }),
          });
        } finally {
          c.close();
        }
      })
      .catch((error: unknown) => notes.push(`could not record the refusal (${message(error)})`));
    return finish({
      behavior: 'deny',
      reason: `Gatehouse: ${own} is Gatehouse's own data (admin token, database, socket); an agent may not touch it. The person can read or change it outside the agent.`,
    });
  }
  let client: GatehouseClient;
  try {
    client = await deps.connect(payload);
  } catch (error) {
    if (isStop(error)) return finish(stopDecision(message(error)));
    const why = `cannot reach Gatehouse (${message(error)})`;
    notes.push(why);
    return finish(fallback(why));
  }
  try {
    const command = mapping.command;
    const withCommand = (c: ActionSpec) => (command === undefined ? c : { ...c, command });
    // `check` carries the kill switch and the breakers; it goes out with the classifications.
    const [gate, tiers] = await Promise.all([
      client.check(payload.tool_name ? { tool: payload.tool_name.slice(0, 128) } : {}),
      Promise.all(mapping.candidates.map((c) => client.classify(withCommand(c)))),
    ]);
    if (!gate.allowed) return finish(stopDecision(stopReason(gate)));
    const asking = mapping.candidates.filter((_, i) => tiers[i]!.tier === 'ask');
    const details = { tool: payload.tool_name, toolUseId: payload.tool_use_id, event };
    if (!asking.length) {
      const top = mapping.candidates[0]!;
      const verdict = tiers[0]!;
      await client.log({
        type: top.action,
        description: mapping.description,
        tier: 'auto',
        details: { ...details, rule: verdict.rule },
      });
      return finish({
        behavior: 'allow',
        reason: `Gatehouse: ${top.action} is auto-allowed (${verdict.rule}: ${verdict.reason})`,
      });
    }
    const chosen = asking[0]!;
    const answer = await client.request({
      ...withCommand(chosen),
      description: mapping.description,
      wait: true,
      timeoutMs: config.waitMs,
      context: compact({
        ...details,
        cwd: payload.cwd,
        permissionMode: payload.permission_mode,
        alsoAsking: asking.length > 1 ? asking.slice(1).map((a) => a.action) : undefined,
      }),
      ...(payload.tool_use_id ? { dedupeKey: `claude-code:${payload.tool_use_id}` } : {}),
    });
    return finish(await decisionFor(answer, chosen, client, config, notes, fallback));
  } catch (error) {
    // A paused or killed agent is stopped: that is a human's no, not a failure.
    if (isStop(error)) return finish(stopDecision(message(error)));
    const why = `Gatehouse answered with an error (${message(error)})`;
    notes.push(why);
    return finish(fallback(why));
  } finally {
    client.close();
  }
}

async function decisionFor(
  answer: AgentResult<'request'>,
  chosen: ActionSpec,
  client: GatehouseClient,
  config: HookConfig,
  notes: string[],
  fallback: (why: string) => HookDecision,
): Promise<HookDecision> {
  const id = answer.requestId;
  switch (answer.status) {
    case 'approved': {
      const extra = [
        answer.message,
        answer.conditions?.length ? `conditions: ${answer.conditions.join('; ')}` : undefined,
      ].filter(Boolean);
      return {
        behavior: 'allow',
        reason: `Gatehouse: ${chosen.action} approved by ${answer.decidedBy ?? 'human'} (${id})${extra.length ? `: ${extra.join(' — ')}` : ''}`,
      };
    }
    case 'denied':
      // An answer without a request id is the SDK failing closed: no human said no.
      if (!id && !answer.reason?.startsWith(PAUSED)) {
        notes.push(answer.reason ?? 'request failed');
        return fallback(answer.reason ?? 'the request failed');
      }
      if (!id) return stopDecision(answer.reason ?? 'the agent is paused');
      return {
        behavior: 'deny',
        reason: `Gatehouse: ${chosen.action} denied${id ? ` (${id})` : ''}: ${answer.reason ?? 'no reason given'}`,
      };
    case 'timed_out': {
      const seconds = +(config.waitMs / 1000).toFixed(config.waitMs < 10_000 ? 1 : 0);
      const late = `no decision on ${chosen.action} within ${seconds} s`;
      if (config.fallback === 'deny') {
        return {
          behavior: 'deny',
          reason: `Gatehouse: ${late}; request ${id} stays in the queue and an approval there lets the same call through next time`,
        };
      }
      // Claude Code's own prompt takes over (by default, and with `ask`; with `defer` its
      // own flow): withdraw the request so no one decides it twice.
      await client
        .cancel(id)
        .catch((error: unknown) => notes.push(`could not withdraw ${id}: ${message(error)}`));
      const withdrawn = `${late} (request ${id} withdrawn)`;
      return config.fallback === 'defer'
        ? fallbackDecision(config, withdrawn)
        : { behavior: 'ask', reason: `Gatehouse: ${withdrawn}; asking in Claude Code instead` };
    }
    default:
      return fallback(`request ${id} is ${answer.status}`);
  }
}

/** Stops Claude Code (`continue: false`) and refuses the call, with Gatehouse's reason. */
function stopDecision(why: string): HookDecision {
  const reason = why.startsWith('Gatehouse says stop') ? why : `Gatehouse says stop: ${why}`;
  return { behavior: 'deny', reason, stop: true };
}

/**
 * How a Claude Code SessionEnd `reason` ends the Gatehouse session (Claude Code 2.1.330's
 * reasons: clear, resume, logout, prompt_input_exit, other). The person leaving (exit,
 * logout) and a run ending otherwise (`other`: what `claude -p` sends when it finishes)
 * complete it; `/clear` throws the conversation away and goes on under a new session id, so
 * this one is aborted, not completed; `resume` switches to another conversation and this one
 * may be resumed under the same id, so it is only recorded and stays open, as do reasons
 * this table does not know.
 */
export function endStatus(reason: string | undefined): 'completed' | 'aborted' | undefined {
  switch (reason) {
    case 'prompt_input_exit':
    case 'logout':
    case 'other':
      return 'completed';
    case 'clear':
      return 'aborted';
    default:
      return undefined;
  }
}

/** Notification, Stop, SessionEnd and the rest: recorded in the session; SessionEnd may end it. */
async function recordEvent(payload: HookPayload, deps: HandleDeps): Promise<HookOutcome> {
  const notes: string[] = [];
  let client: GatehouseClient | undefined;
  try {
    client = await deps.connect(payload);
    const event = payload.hook_event_name;
    await client.log({
      type: logType(event),
      description: eventDescription(payload),
      details: compact({
        event,
        notificationType: payload.notification_type,
        reason: payload.reason,
        source: payload.source,
      }),
    });
    const status = event === 'SessionEnd' ? endStatus(payload.reason) : undefined;
    if (status) {
      const { summary } = await client.end(status);
      notes.push(summary.text);
    } else if (event === 'SessionEnd') {
      notes.push(`session ${payload.reason ?? 'ended'}: kept open, it may go on`);
    }
  } catch (error) {
    notes.push(`could not record ${payload.hook_event_name} in Gatehouse (${message(error)})`);
  } finally {
    client?.close();
  }
  return { notes };
}

const logType = (event: string): string =>
  `claude_code.${event.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()}`;

function eventDescription(p: HookPayload): string {
  switch (p.hook_event_name) {
    case 'Notification':
      return `Claude Code: ${p.message ?? 'notification'}`;
    case 'Stop':
      return 'Claude Code finished responding';
    case 'SubagentStop':
      return 'A Claude Code subagent finished';
    case 'SessionEnd':
      return `Claude Code session ended${p.reason ? ` (${p.reason})` : ''}`;
    case 'SessionStart':
      return `Claude Code session started${p.source ? ` (${p.source})` : ''}`;
    default:
      return `Claude Code event ${p.hook_event_name}`;
  }
}

/** Why Gatehouse says stop: a paused or killed agent, or a tripped breaker, with its advice. */
function stopReason(r: AgentResult<'check'>): string {
  const trips = r.verdicts.filter((v) => v.tripped);
  const why = trips.length
    ? trips
        .map((v) => `${v.reason ?? v.breaker}${v.suggestion ? ` — ${v.suggestion}` : ''}`)
        .join('; ')
    : `mode ${r.mode}`;
  return `Gatehouse says stop: ${why}`;
}

const isStop = (error: unknown): boolean =>
  error instanceof RpcError && error.code === ErrorCode.AgentPaused;

const message = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

function compact<T extends Record<string, unknown>>(o: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
