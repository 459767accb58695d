import type { AgentResult } from '../../../shared/protocol/method-map';
import { ErrorCode } from '../../../shared/protocol/errors';
import type { GatehouseClient } from '../../sdk/client';
import { RpcError } from '../../sdk/rpc-client';
import { isInternalTool } from '../../../shared/tools/claude-code-tools';
import { answerFor, type HookAnswer, type HookDecision } from './answer';
import type { Fallback, HookConfig } from './hook-config';
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
}

/** The fallback answer, with why it was given. */
export function fallbackDecision(fallback: Fallback, why: string): HookDecision {
  const then =
    fallback === 'ask'
      ? 'asking in Claude Code instead'
      : fallback === 'deny'
        ? 'denying'
        : 'allowing (GATEHOUSE_HOOK_FALLBACK=allow)';
  return { behavior: fallback, reason: `Gatehouse: ${why}; ${then}` };
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
  let client: GatehouseClient;
  try {
    client = await deps.connect(payload);
  } catch (error) {
    if (isStop(error))
      return finish({ behavior: 'deny', reason: `Gatehouse says stop: ${message(error)}` });
    const why = `cannot reach Gatehouse (${message(error)})`;
    notes.push(why);
    return finish(fallbackDecision(config.fallback, why));
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
    // A killed agent is refused every call: that is a human's no, not a failure.
    if (isStop(error))
      return finish({ behavior: 'deny', reason: `Gatehouse says stop: ${message(error)}` });
    const why = `Gatehouse answered with an error (${message(error)})`;
    notes.push(why);
    return finish(fallbackDecision(config.fallback, why));
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
  switch (answer.outcome) {
    case 'allow':
      return { behavior: 'allow', reason: answer.reason };
    case 'deny':
      return { behavior: 'deny', reason: answer.reason };
    case 'none':
      return fallbackDecision(config.fallback, answer.reason);
    case 'pending': {
      const id = answer.requestId ?? '';
      const asking = answer.actions.filter((a) => a.tier === 'ask');
      const action = (asking.find((a) => a.risk === 'critical') ?? asking[0])?.action ?? 'the call';
      const seconds = +(config.waitMs / 1000).toFixed(config.waitMs < 10_000 ? 1 : 0);
      if (config.fallback === 'deny') {
        return fallbackDecision(
          'deny',
          `no decision on ${action} within ${seconds} s; request ${id} stays in the queue and an approval there lets the same call through next time`,
        );
      }
      // Claude Code's own prompt takes over: withdraw the request so no one decides it twice.
      await client
        .cancel(id)
        .catch((error: unknown) => notes.push(`could not withdraw ${id}: ${message(error)}`));
      return fallbackDecision(
        config.fallback,
        `no decision on ${action} within ${seconds} s (request ${id} withdrawn)`,
      );
    }
  }
}

/** Notification, Stop, SessionEnd and the rest: recorded in the session; SessionEnd ends it. */
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
    if (event === 'SessionEnd') {
      const { summary } = await client.end('completed');
      notes.push(summary.text);
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
