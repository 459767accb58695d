import type { AgentResult } from '../../../shared/protocol/method-map';
import { ErrorCode } from '../../../shared/protocol/errors';
import type { GatehouseClient } from '../../sdk/client';
import { RpcError } from '../../sdk/rpc-client';
import { loadBashParser } from '../../../shared/node/bash-parser';
import type { ActionSpec } from '../../../shared/tools/action-spec';
import { toolAction } from '../../../shared/tools/claude-code-tools';
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

const PAUSED = 'GATEHOUSE_ERROR -32003';

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
  const mapping = toolAction(
    payload.tool_name ?? '',
    payload.tool_input ?? {},
    await loadBashParser(),
  );
  // Claude Code's own bookkeeping tools: no answer, so its normal flow goes on.
  if (mapping.kind === 'internal') return { notes: [] };
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
    const command = mapping.command;
    const withCommand = (c: ActionSpec) => (command === undefined ? c : { ...c, command });
    // `check` carries the kill switch and the breakers; it goes out with the classifications.
    const [gate, tiers] = await Promise.all([
      client.check(payload.tool_name ? { tool: payload.tool_name.slice(0, 128) } : {}),
      Promise.all(mapping.candidates.map((c) => client.classify(withCommand(c)))),
    ]);
    if (!gate.allowed) return finish({ behavior: 'deny', reason: stopReason(gate) });
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
    return finish(await decisionFor(answer, chosen, client, config, notes));
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
  answer: AgentResult<'request'>,
  chosen: ActionSpec,
  client: GatehouseClient,
  config: HookConfig,
  notes: string[],
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
        return fallbackDecision(config.fallback, answer.reason ?? 'the request failed');
      }
      return {
        behavior: 'deny',
        reason: `Gatehouse: ${chosen.action} denied${id ? ` (${id})` : ''}: ${answer.reason ?? 'no reason given'}`,
      };
    case 'timed_out': {
      const seconds = +(config.waitMs / 1000).toFixed(config.waitMs < 10_000 ? 1 : 0);
      if (config.fallback === 'deny') {
        return fallbackDecision(
          'deny',
          `no decision on ${chosen.action} within ${seconds} s; request ${id} stays in the queue and an approval there lets the same call through next time`,
        );
      }
      // Claude Code's own prompt takes over: withdraw the request so no one decides it twice.
      await client
        .cancel(id)
        .catch((error: unknown) => notes.push(`could not withdraw ${id}: ${message(error)}`));
      return fallbackDecision(
        config.fallback,
        `no decision on ${chosen.action} within ${seconds} s (request ${id} withdrawn)`,
      );
    }
    default:
      return fallbackDecision(config.fallback, `request ${id} is ${answer.status}`);
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
