import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { AgentParams, AgentResult } from '../../shared/protocol/method-map';
import type {
  ControlNotification,
  DecisionNotification,
} from '../../shared/protocol/agent-methods';
import { sizedParams } from './oversize';
import { MAX_RATE_LIMIT_WAIT_MS, retryAfterMsOf } from './rate-limit';
import { Reconnector, type ReconnectOptions } from './reconnector';
import { ConnectionError, RpcClient, RpcError, UnsafeSocketError } from './rpc-client';
import { resolveSocketPath } from '../../shared/node/socket-path';
import {
  failClosed,
  stoppedCheck,
  stoppedClassification,
  stoppedReason,
  unreachableCheck,
  unreachableClassification,
  unrecordedEnd,
} from './unreachable';

export { failClosed } from './unreachable';

export interface ConnectOptions extends AgentParams<'hello'>, ReconnectOptions {
  /** Defaults to the path docs/protocol.md resolves from the environment. */
  socketPath?: string;
  connectTimeoutMs?: number;
  /**
   * `true` (the default): never throw for an unreachable Gatehouse; keep reconnecting with
   * back-off and resume the same session. `false`: one connection, and `connect` throws
   * {@link ConnectionError} when Gatehouse is not running (for one-shot callers such as hooks).
   */
  reconnect?: boolean;
}

export type RequestAnswer = AgentResult<'request'>;

export interface GatehouseClientEvents {
  decision: [DecisionNotification];
  control: [ControlNotification];
  /** The connection dropped (with `reconnect`, a new one is being sought). */
  close: [];
  /** A new connection said hello again and resumed the session. */
  reconnected: [AgentResult<'hello'>];
}

/**
 * An agent's connection to Gatehouse.
 *
 * ```ts
 * const gh = await GatehouseClient.connect({ agent: 'my-agent', project: process.cwd() });
 * const answer = await gh.request({ action: 'git_push', description: 'Push the fix to origin' });
 * if (answer.status === 'approved') await push();
 * await gh.end('completed');
 * ```
 *
 * Fails closed from the first line: `connect` does not throw when Gatehouse is down,
 * `request` answers `denied` by `system` (reason `GATEHOUSE_UNREACHABLE: …`), `classify`
 * answers `ask`, `check` answers `allowed: false`, and `end` returns a summary that says it
 * was not recorded. When the daemon restarts, the client reconnects with back-off, says
 * `hello` with the same `sessionKey` (so the session goes on), and sends again what was
 * waiting: a `request` still pending is found again by its `dedupeKey`.
 */
export class GatehouseClient extends EventEmitter<GatehouseClientEvents> {
  private rpc?: RpcClient;
  private helloResult?: AgentResult<'hello'>;
  private readonly reconnector?: Reconnector;
  private readonly startedAt = new Date().toISOString();
  private closed = false;
  private lastControl?: ControlNotification | undefined;

  private constructor(private readonly o: ConnectOptions & { sessionKey: string }) {
    super();
    if (o.reconnect !== false) {
      this.reconnector = new Reconnector(() => this.open(), o);
    }
  }

  /**
   * Connects and says hello. With `reconnect: false`, throws ConnectionError when Gatehouse
   * is not running; otherwise resolves, connected or still trying. Either way it throws
   * UnsafeSocketError for a socket directory or file that is not the user's own.
   */
  static async connect(o: ConnectOptions): Promise<GatehouseClient> {
    const client = new GatehouseClient({ ...o, sessionKey: o.sessionKey ?? randomUUID() });
    try {
      await client.open();
    } catch (error) {
      // An unsafe socket is not "Gatehouse is down": someone else may be listening there, so
      // it is refused loudly instead of retried in the background.
      if (
        !client.reconnector ||
        !(error instanceof ConnectionError) ||
        error instanceof UnsafeSocketError
      )
        throw error;
      client.reconnector.schedule();
    }
    return client;
  }

  /** The Gatehouse session id; undefined until the first hello succeeds. */
  get sessionId(): string | undefined {
    return this.helloResult?.sessionId;
  }

  /** The answer to the latest hello; undefined until one succeeds. */
  get hello(): AgentResult<'hello'> | undefined {
    return this.helloResult;
  }

  /**
   * The latest `control` notification while a human holds this agent (paused or killed, with
   * the reason): also told right after a (re)connect; undefined once resumed or never held.
   */
  get control(): ControlNotification | undefined {
    return this.lastControl;
  }

  /** The session key sent with every hello: the same session across reconnects. */
  get sessionKey(): string {
    return this.o.sessionKey;
  }

  get connected(): boolean {
    return !!this.rpc?.connected && !!this.helloResult;
  }

  async classify(p: AgentParams<'classify'>): Promise<AgentResult<'classify'>> {
    try {
      return await this.call('classify', sizedParams(p));
    } catch (error) {
      if (error instanceof ConnectionError) return unreachableClassification(error);
      if (stoppedReason(error) && error instanceof RpcError) return stoppedClassification(error);
      throw error;
    }
  }

  /**
   * Asks permission. Never throws: any failure is a `denied` answer with the reason. A
   * `request` that was waiting when the connection dropped is sent again after the
   * reconnect with the same `dedupeKey`, which finds the same pending request.
   */
  async request(p: AgentParams<'request'>): Promise<RequestAnswer> {
    const params = sizedParams(p.dedupeKey ? p : { ...p, dedupeKey: `sdk:${randomUUID()}` });
    try {
      return await this.call<'request'>('request', params);
    } catch (error) {
      return failClosed(error);
    }
  }

  await(p: AgentParams<'await'>): Promise<AgentResult<'await'>> {
    return this.call('await', p);
  }

  cancel(requestId: string): Promise<AgentResult<'cancel'>> {
    return this.call('cancel', { requestId });
  }

  log(p: AgentParams<'log'>): Promise<AgentResult<'log'>> {
    return this.call('log', p);
  }

  usage(p: AgentParams<'usage'>): Promise<AgentResult<'usage'>> {
    return this.call('usage', p);
  }

  async check(p: AgentParams<'check'> = {}): Promise<AgentResult<'check'>> {
    try {
      return await this.call('check', p);
    } catch (error) {
      if (error instanceof ConnectionError) return unreachableCheck(error);
      const stopped = stoppedReason(error);
      if (stopped && error instanceof RpcError) return stoppedCheck(error, stopped);
      throw error;
    }
  }

  outcome(p: AgentParams<'outcome'>): Promise<AgentResult<'outcome'>> {
    return this.call('outcome', p);
  }

  /** Ends the session and closes the connection. Never throws for an unreachable Gatehouse. */
  async end(status: AgentParams<'end'>['status'] = 'completed'): Promise<AgentResult<'end'>> {
    try {
      return await this.call('end', { status });
    } catch (error) {
      if (!(error instanceof ConnectionError)) throw error;
      return unrecordedEnd(this.sessionId, this.startedAt, new Date().toISOString(), error);
    } finally {
      this.close();
    }
  }

  /** Relays one native tool call of an agent adapter (PROTOCOL addition `gate`). */
  gate(p: AgentParams<'gate'>): Promise<AgentResult<'gate'>> {
    return this.call<'gate'>('gate', p);
  }

  close(): void {
    this.closed = true;
    this.reconnector?.stop();
    this.rpc?.close();
  }

  /**
   * One call. With `reconnect`, a call that finds no connection (or loses it on the way)
   * waits for the next one, up to `reconnectWaitMs`, and is sent again: every agent method
   * is safe to repeat (`request` through its dedupeKey). A call the connection's rate limit
   * refused is sent again after the wait the server names, up to
   * {@link MAX_RATE_LIMIT_WAIT_MS} in all; past that its -32004 is the answer.
   */
  private async call<K extends keyof MethodResults>(
    method: K,
    params: object,
  ): Promise<MethodResults[K]> {
    let rateLimitedMs = 0;
    for (;;) {
      const rpc = this.connected ? this.rpc : undefined;
      try {
        if (!rpc) throw new ConnectionError('not connected to Gatehouse');
        return await rpc.call<MethodResults[K]>(method, params);
      } catch (error) {
        const waitMs = retryAfterMsOf(error);
        if (
          waitMs !== undefined &&
          !this.closed &&
          rateLimitedMs + waitMs <= MAX_RATE_LIMIT_WAIT_MS
        ) {
          rateLimitedMs += waitMs;
          await new Promise((resolve) => setTimeout(resolve, waitMs));
          continue;
        }
        if (!(error instanceof ConnectionError) || !this.reconnector || this.closed) throw error;
        // A session that never started has no restart to wait for: one more try, then fail
        // closed at once. A session that was running waits for its daemon to come back.
        if (this.helloResult) await this.reconnector.waitForConnection(error);
        else await this.reconnector.tryOnce(error);
      }
    }
  }

  /** Opens a connection and says hello (again, with the same sessionKey). */
  private async open(): Promise<void> {
    if (this.closed) throw new ConnectionError('the client is closed');
    const { agent, sessionKey, project, labels, socketPath, connectTimeoutMs } = this.o;
    const hello: AgentParams<'hello'> = { agent, sessionKey, project, labels };
    const rpc = new RpcClient(socketPath ?? resolveSocketPath());
    await rpc.connect(connectTimeoutMs);
    // Listening before hello: a held agent is told so right after its hello's answer.
    rpc.on('notification', (method: string, params: unknown) => {
      if (method === 'decision') this.emit('decision', params as DecisionNotification);
      if (method === 'control') {
        const control = params as ControlNotification;
        this.lastControl = control.state === 'resumed' ? undefined : control;
        this.emit('control', control);
      }
    });
    let result: AgentResult<'hello'>;
    try {
      result = await rpc.call<AgentResult<'hello'>>('hello', hello);
    } catch (error) {
      rpc.close();
      throw error;
    }
    const resumed = this.helloResult !== undefined;
    this.rpc = rpc;
    this.helloResult = result;
    rpc.on('close', () => {
      if (this.rpc !== rpc) return;
      this.emit('close');
      if (!this.closed) this.reconnector?.schedule();
    });
    this.reconnector?.connected();
    if (resumed) this.emit('reconnected', result);
  }
}

type MethodResults = { [K in keyof AgentResultMap]: AgentResultMap[K] };
type AgentResultMap = {
  classify: AgentResult<'classify'>;
  request: AgentResult<'request'>;
  await: AgentResult<'await'>;
  cancel: AgentResult<'cancel'>;
  log: AgentResult<'log'>;
  usage: AgentResult<'usage'>;
  check: AgentResult<'check'>;
  outcome: AgentResult<'outcome'>;
  end: AgentResult<'end'>;
  gate: AgentResult<'gate'>;
};

/**
 * Asks permission once without keeping a connection: connects, says hello, requests and
 * closes. Fails closed like {@link GatehouseClient.request}: when Gatehouse is not running
 * the answer is `denied` at once, without waiting for it to start.
 *
 * ```ts
 * const answer = await requestPermission(
 *   { agent: 'nightly-release' },
 *   { action: 'deploy', description: 'Deploy v1.2 to production', urgency: 'high' },
 * );
 * if (answer.status === 'approved') await deploy();
 * ```
 */
export async function requestPermission(
  o: ConnectOptions,
  p: AgentParams<'request'>,
): Promise<RequestAnswer> {
  let client: GatehouseClient | undefined;
  try {
    client = await GatehouseClient.connect({ ...o, reconnect: false });
    return await client.request(p);
  } catch (error) {
    return failClosed(error);
  } finally {
    client?.close();
  }
}
