import { ErrorCode } from '../../../shared/protocol/errors';
import { GatehouseClient } from '../../sdk/client';
import { RpcError } from '../../sdk/rpc-client';
import { START_GATEHOUSE } from '../../../shared/node/hooks/relay/types';
import { agentEnvironmentParams } from '../../../shared/node/hooks/relay/agent-environment';
import { secretVariablesIn } from '../../../shared/tools/secret-variables';
import { permissionAskedOf, sseData, toolCallOf, type PermissionAsked } from './bridge-events';

export interface BridgeOptions {
  /** The `opencode serve` base URL, e.g. http://127.0.0.1:4096. */
  url: string;
  /** OPENCODE_SERVER_PASSWORD, when the server has one (HTTP basic auth, user `opencode`). */
  password?: string;
  /** The agent name the sessions show under. */
  agent: string;
  /** How long one wait for a person lasts before waiting again (OpenCode waits as long as it takes). */
  waitMs: number;
  socketPath?: string;
  log: (line: string) => void;
  signal?: AbortSignal;
  /**
   * The environment the server's tools run in, which the gate is told of (PATH, CDPATH,
   * moved config homes, Gatehouse's secret variables): the bridge's own by default, as the
   * server's API does not say it; start the bridge from the shell that starts the server.
   */
  env?: Readonly<Record<string, string | undefined>>;
}

type Reply = { reply: 'once' | 'reject'; message?: string; stop?: boolean };

const RETRY_MS = 1_000;

/**
 * `gatehouse opencode-bridge`: answers `opencode serve`'s own permission asks from Gatehouse.
 * It follows the server's event stream; for each `permission.asked` it files the call with
 * Gatehouse (the same `gate` as the plugin, OpenCode's session as the Gatehouse session, the
 * call id as the request's dedupe key), waits for the person, and replies `once` (approved)
 * or `reject` with the reason (denied) over `POST /permission/{id}/reply`. Gatehouse
 * unreachable: reject, with how to start it (fail closed). A stop (pause, kill) also aborts
 * the OpenCode session. Runs until the signal aborts; a dropped stream is followed again.
 */
export async function runOpencodeBridge(o: BridgeOptions): Promise<void> {
  const base = o.url.replace(/\/+$/, '');
  const headers: Record<string, string> = o.password
    ? { authorization: `Basic ${Buffer.from(`opencode:${o.password}`).toString('base64')}` }
    : {};
  const answering = new Set<string>();
  while (!o.signal?.aborted) {
    try {
      const res = await fetch(`${base}/event`, {
        headers: { ...headers, accept: 'text/event-stream' },
        ...(o.signal ? { signal: o.signal } : {}),
      });
      if (!res.ok || !res.body) throw new Error(`GET /event answered ${res.status}`);
      o.log(`following ${base}/event`);
      let buffer = '';
      const decoder = new TextDecoder();
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        const { events, rest } = sseData(buffer);
        buffer = rest;
        for (const data of events) {
          const asked = permissionAskedOf(data);
          if (!asked || answering.has(asked.id)) continue;
          answering.add(asked.id);
          void sessionDirectory(base, headers, asked.sessionID)
            .then((cwd) => answer(asked, { ...o, ...(cwd ? { cwd } : {}) }))
            .then((r) => send(base, headers, asked, r, o))
            .catch((error: unknown) => o.log(`${asked.id}: ${message(error)}`))
            .finally(() => answering.delete(asked.id));
        }
      }
    } catch (error) {
      if (o.signal?.aborted) break;
      o.log(`event stream: ${message(error)}; following again in ${RETRY_MS / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
}

/** Asks Gatehouse about one permission; waits for the person as long as it takes. */
export async function answer(
  asked: PermissionAsked,
  o: Pick<BridgeOptions, 'agent' | 'waitMs' | 'socketPath' | 'log' | 'env'> & { cwd?: string },
): Promise<Reply> {
  const env = o.env ?? process.env;
  let client: GatehouseClient;
  try {
    client = await GatehouseClient.connect({
      agent: o.agent,
      sessionKey: asked.sessionID.slice(0, 256),
      labels: { client: 'opencode', via: 'opencode-bridge' },
      ...(o.cwd ? { project: o.cwd } : {}),
      reconnect: false,
      ...(o.socketPath ? { socketPath: o.socketPath } : {}),
    });
  } catch (error) {
    return {
      reply: 'reject',
      message: `Gatehouse: cannot reach Gatehouse (${message(error)}), so the call is denied. ${START_GATEHOUSE}.`,
    };
  }
  try {
    const { tool, input } = toolCallOf(asked);
    const gated = await client.gate({
      client: 'opencode',
      event: 'permission.asked',
      tool: tool.slice(0, 256),
      input,
      wait: true,
      timeoutMs: o.waitMs,
      ...(asked.callID ? { toolUseId: asked.callID.slice(0, 256) } : {}),
      ...(o.cwd ? { cwd: o.cwd } : {}),
      ...agentEnvironmentParams(env, secretVariablesIn(env)),
    });
    if (gated.stop) return { reply: 'reject', message: gated.reason, stop: true };
    if (gated.outcome === 'allow' || gated.outcome === 'none') return { reply: 'once' };
    if (gated.outcome === 'deny') return { reply: 'reject', message: gated.reason };
    // Still pending: OpenCode keeps waiting, so does the bridge.
    const id = gated.requestId ?? '';
    o.log(`${asked.permission} ${asked.patterns.join(' ')}: waiting for a person (request ${id})`);
    for (;;) {
      const r = await client.await({ requestId: id, timeoutMs: o.waitMs });
      if (r.status === 'approved') return { reply: 'once' };
      if (r.status !== 'pending' && r.status !== 'queued')
        return {
          reply: 'reject',
          message: `Gatehouse: ${r.reason ?? r.message ?? `request ${id} ${r.status}`}`,
        };
    }
  } catch (error) {
    // A paused or killed agent is stopped: that is a person's no, not a failure.
    if (error instanceof RpcError && error.code === ErrorCode.AgentPaused)
      return { reply: 'reject', message: `Gatehouse says stop: ${message(error)}`, stop: true };
    return { reply: 'reject', message: `Gatehouse: ${message(error)}; the call is denied` };
  } finally {
    client.close();
  }
}

/** The OpenCode session's folder (`GET /session/{id}`), for project policy; undefined when unknown. */
async function sessionDirectory(
  base: string,
  headers: Record<string, string>,
  sessionID: string,
): Promise<string | undefined> {
  try {
    const res = await fetch(`${base}/session/${encodeURIComponent(sessionID)}`, { headers });
    const session = (await res.json()) as { directory?: unknown };
    return typeof session.directory === 'string' && session.directory
      ? session.directory
      : undefined;
  } catch {
    return undefined;
  }
}

async function send(
  base: string,
  headers: Record<string, string>,
  asked: PermissionAsked,
  r: Reply,
  o: Pick<BridgeOptions, 'log'>,
): Promise<void> {
  const res = await fetch(`${base}/permission/${encodeURIComponent(asked.id)}/reply`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ reply: r.reply, ...(r.message ? { message: r.message } : {}) }),
  });
  o.log(`${asked.permission} ${asked.patterns.join(' ')}: ${r.reply} (${res.status})`);
  if (r.stop)
    await fetch(`${base}/session/${encodeURIComponent(asked.sessionID)}/abort`, {
      method: 'POST',
      headers,
    }).catch(() => undefined);
}

const message = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
