import type { AgentResult } from '../../../shared/protocol/method-map';
import { ErrorCode } from '../../../shared/protocol/errors';
import type { GatehouseClient } from '../../sdk/client';
import { RpcError } from '../../sdk/rpc-client';
import { loadBashParser } from '../../../shared/node/bash-parser';
import { isInternalTool, toolAction } from '../../../shared/tools/claude-code-tools';
import { answerFor, type HookAnswer, type HookDecision } from './answer';
import type { HookConfig } from './hook-config';
import { offlineDecision, START_GATEHOUSE, type OfflineCall } from './offline-decision';
import type { HookPayload } from './payload';

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

/**
 * The fallback for a payload's tool call, judged by the built-in table where that applies.
 * The shell parser loads only here: the daemon parses when it is reachable, so the hook
 * process stays a thin relay on the common path.
 */
export async function fallbackFor(
  payload: HookPayload,
  config: HookConfig,
  env: NodeJS.ProcessEnv,
  why: string,
): Promise<HookDecision> {
  if (config.fallback !== 'builtin') return fallbackDecision(config, why);
  let call: OfflineCall | undefined;
  try {
    const mapping = toolAction(
      payload.tool_name ?? '',
      payload.tool_input ?? {},
      await loadBashParser(),
    );
    if (mapping.kind === 'internal') return { behavior: 'defer', reason: 'internal tool' };
    call = mapping;
  } catch {
    call = undefined; // no parser: the call cannot be judged here, so it is denied below
  }
  return fallbackDecision(config, why, call, { cwd: payload.cwd, env });
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
  const tool = payload.tool_name ?? '';
  // Claude Code's own bookkeeping tools: no answer, so its normal flow goes on.
  if (isInternalTool(tool)) return { notes: [] };
  const notes: string[] = [];
  const finish = (d: HookDecision): HookOutcome => ({ answer: answerFor(event, d), notes });
  // Gatehouse's own files are the daemon's to guard (critical, always asks); without the
  // daemon the built-in table refuses them (offline-decision.ts).
  const fallback = (why: string) => fallbackFor(payload, config, deps.env, why);
  let client: GatehouseClient;
  try {
    client = await deps.connect(payload);
  } catch (error) {
    if (isStop(error)) return finish(stopDecision(message(error)));
    const why = `cannot reach Gatehouse (${message(error)})`;
    notes.push(why);
    return finish(await fallback(why));
  }
  try {
    // One round trip: the daemon maps, classifies and decides the call warm (the gate method).
    const answer = await client.gate({
      client: 'claude-code',
      event,
      tool: tool.slice(0, 256) || 'unknown',
      input: payload.tool_input ?? {},
      wait: true,
      timeoutMs: config.waitMs,
      ...(payload.tool_use_id ? { toolUseId: payload.tool_use_id.slice(0, 256) } : {}),
      ...(payload.cwd ? { cwd: payload.cwd } : {}),
      ...(payload.permission_mode ? { permissionMode: payload.permission_mode } : {}),
    });
    return finish(await decisionFor(answer, client, config, notes));
  } catch (error) {
    // A paused or killed agent is stopped: that is a human's no, not a failure.
    if (isStop(error)) return finish(stopDecision(message(error)));
    const why = `Gatehouse answered with an error (${message(error)})`;
    notes.push(why);
    return finish(await fallback(why));
  } finally {
    client.close();
  }
}

async function decisionFor(
  answer: AgentResult<'gate'>,
  client: GatehouseClient,
  config: HookConfig,
  notes: string[],
): Promise<HookDecision> {
  if (answer.stop) return stopDecision(answer.stop.reason);
  switch (answer.outcome) {
    case 'allow':
      return { behavior: 'allow', reason: answer.reason };
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

const isStop = (error: unknown): boolean =>
  error instanceof RpcError && error.code === ErrorCode.AgentPaused;

const message = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

function compact<T extends Record<string, unknown>>(o: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
