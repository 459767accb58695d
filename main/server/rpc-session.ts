import { replyJson } from '../../shared/json-numbers';
import type { Clock, TimerHandle } from '../../shared/clock';
import { ErrorCode, type ErrorCodeValue, GatehouseError } from '../../shared/protocol/errors';
import {
  agentMethods,
  isAdminMethod,
  isAgentMethod,
  type AgentMethod,
} from '../../shared/protocol/method-map';
import { parseParams } from '../../shared/protocol/validate';
import type { AgentCaller, Engine } from '../engine/engine';
import type { AdminService } from './admin-port';
import type { ConnectionCalls } from './call-budget';
import { CallRate } from './call-rate';
import type { ChannelBreach, LineChannel, LineReceiver } from './line-channel';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from './ndjson';
import type { PeerAuthThrottle } from './peer-auth-throttle';
import { readAgainAfter } from './read-only-calls';
import { envelopeOf, type Envelope, type Id } from './rpc-envelope';
import { toRpcError, type RpcErrorObject } from './rpc-error-replies';
import { SocketAdminAuth } from './socket-admin-auth';

/** What a session asks of the engine: agent calls, their durability, and its own audit entries. */
export type SessionEngine = Pick<Engine, 'hello' | 'call' | 'whenDurable' | 'recordAudit'>;

export interface RpcSessionDeps {
  engine: SessionEngine;
  admin: AdminService;
  adminToken: () => string;
  clock: Clock;
  /** Calls per second a connection may make before it gets -32004. */
  rateLimitPerSecond: number;
  /** How long a new connection may go without `hello` (or `auth`) before it is closed. */
  helloTimeoutMs: number;
  /** The limit on failed `auth` attempts: shared, then per peer process during a flood. */
  authThrottle: PeerAuthThrottle;
  /** A number for this connection in audit entries (a Unix socket peer has no address). */
  connectionId: number;
  /** This connection's share of the calls that may run at once (answered or not). */
  calls: ConnectionCalls;
  onHello(session: RpcSession): void;
  /** The hello's session could not be stored: the connection is as before its hello. */
  onHelloUndone(session: RpcSession): void;
  onClose(session: RpcSession): void;
}

/** A call's answer as sent: its result or its error. */
interface RpcAnswer {
  jsonrpc: '2.0';
  id: Id | undefined;
  result?: unknown;
  error?: RpcErrorObject;
}

/** The error a channel's breach is answered with before the connection closes. */
function breachError(b: ChannelBreach): { code: ErrorCodeValue; message: string } {
  switch (b.kind) {
    case 'line-too-long':
      return { code: ErrorCode.FrameTooLarge, message: `frame larger than ${b.maxBytes} bytes` };
    case 'input-budget-spent':
      return {
        code: ErrorCode.RateLimited,
        message: 'rate limited: the server holds too much unfinished input from all connections',
      };
    case 'line-timeout':
      return {
        code: ErrorCode.InvalidRequest,
        message: `line left unfinished for more than ${b.ms} ms`,
      };
  }
}

/**
 * One client of the agent socket above its line channel: JSON-RPC 2.0 envelopes, the per-
 * connection rate limit, the role (`agent` until `auth` makes it `admin`), and dispatch. Calls
 * run concurrently; each answer goes out when its call finishes and what it wrote is committed,
 * so a `request` waiting for a human never holds up later calls.
 */
export class RpcSession implements LineReceiver {
  caller?: AgentCaller | undefined;
  role: 'agent' | 'admin' = 'agent';
  private unsubscribe?: () => void;
  private readonly rate: CallRate;
  private readonly auth: SocketAdminAuth;
  private helloTimer?: TimerHandle | undefined;

  constructor(
    private readonly channel: LineChannel,
    private readonly d: RpcSessionDeps,
  ) {
    this.rate = new CallRate(d.rateLimitPerSecond, d.clock);
    this.auth = new SocketAdminAuth({
      throttle: d.authThrottle,
      adminToken: d.adminToken,
      attempt: { connectionId: d.connectionId, socket: channel.socket },
      audit: (type, data) =>
        d.engine.recordAudit(type, {
          ...(this.caller ? { sessionId: this.caller.sessionId, agent: this.caller.agent } : {}),
          data,
        }),
      stopReading: () => channel.stopReading(),
      closeAfterAnswer: () => this.closeAfterAnswer(),
    });
    const ms = d.helloTimeoutMs;
    this.helloTimer = d.clock.setTimer(ms, () =>
      this.refuse(ErrorCode.HelloRequired, `no hello within ${ms} ms`),
    );
    channel.open(this);
  }

  /** Sends a notification (a decision, a control notice, an admin event). */
  notify(method: string, params: object): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** Drops the connection at once (the server is stopping). */
  destroy(): void {
    this.channel.destroy();
  }

  breach(b: ChannelBreach): void {
    const { code, message } = breachError(b);
    this.refuse(code, message);
  }

  closed(): void {
    this.clearHelloTimer();
    this.unsubscribe?.();
    this.d.onClose(this);
  }

  line(text: string): void {
    const env = this.callOf(text);
    if (env instanceof Refusal) {
      // A notification over the rate limit has nowhere to be answered: it is dropped.
      if (env.message.id !== undefined) this.send(env.message);
      return;
    }
    let result: unknown;
    try {
      result = this.dispatch(env.method, env.params);
    } catch (error) {
      return this.answer(env, { jsonrpc: '2.0', id: env.id, error: toRpcError(error) });
    }
    if (result instanceof Promise) {
      result.then(
        (value: unknown) => this.answer(env, { jsonrpc: '2.0', id: env.id, result: value }),
        (error: unknown) =>
          this.answer(env, { jsonrpc: '2.0', id: env.id, error: toRpcError(error) }),
      );
    } else {
      this.answer(env, { jsonrpc: '2.0', id: env.id, result });
    }
  }

  /**
   * Sends a call's answer once what it wrote is committed (group commit); a notification's is
   * dropped. Most calls answer synchronously: they skip promises altogether on this, the hot
   * path.
   */
  private answer(call: Envelope, message: RpcAnswer): void {
    if (call.id === undefined) return;
    this.d.engine.whenDurable(
      () => this.send(message),
      (error) => this.answerUncommitted(call, message, error),
    );
  }

  /** The commit a call's answer waited for failed (a full disk, say). */
  private answerUncommitted(call: Envelope, message: RpcAnswer, error: unknown): void {
    const { id, method, params } = call;
    // A hello whose session was never stored did not happen: later calls get "say hello
    // first", not "session not found".
    if (method === 'hello') this.undoHello();
    // A call that failed by itself stored nothing: its own error is the answer.
    if (message.error !== undefined) return this.send(message);
    if (readAgainAfter(method, error)) return this.readAgain(id, method, params);
    this.send({ jsonrpc: '2.0', id, error: toRpcError(error) });
  }

  /**
   * The envelope of a line this session takes, or the error that answers any other: not JSON,
   * nested too deep, a batch, not a JSON-RPC envelope, over the connection's rate limit.
   */
  private callOf(text: string): Envelope | Refusal {
    // A line too deep is refused before anything recursive meets it. JSON that nests deeper
    // than MAX_JSON_DEPTH takes two characters a level, so a shorter line is parsed first and
    // scanned only when it is not JSON (to refuse it with the same error as a long one).
    const short = text.length <= 2 * MAX_JSON_DEPTH;
    if (!short && jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) return tooDeep();
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      if (short && jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) return tooDeep();
      return new Refusal(null, ErrorCode.ParseError, 'parse error: the line is not JSON');
    }
    if (Array.isArray(raw))
      return new Refusal(null, ErrorCode.InvalidRequest, 'batches are not supported');
    const env = envelopeOf(raw);
    if (!env)
      return new Refusal(
        idOf(raw),
        ErrorCode.InvalidRequest,
        'invalid request: expected a JSON-RPC 2.0 object with a method',
      );
    if (!this.rate.take())
      // When to send again, so that a well-behaved agent backs off for just that long.
      return new Refusal(env.id, ErrorCode.RateLimited, 'rate limited: slow down', {
        retryAfterMs: this.rate.msUntilNextToken(),
      });
    return env;
  }

  private dispatch(method: string, params: unknown): unknown {
    if (method === 'auth') {
      const ok = this.auth.authenticate(params);
      return ok === true ? this.becomeAdmin() : ok.then(() => this.becomeAdmin());
    }
    if (this.role === 'admin' && method === 'subscribe') {
      this.unsubscribe ??= this.d.admin.subscribe((event) => this.notify('event', event));
      return { subscribed: true };
    }
    if (isAdminMethod(method)) {
      if (this.role !== 'admin')
        throw new GatehouseError(
          ErrorCode.MethodNotFound,
          `method "${method}" is not allowed for the agent role`,
        );
      return this.d.admin.invokeUnchecked(method, params);
    }
    if (!isAgentMethod(method))
      throw new GatehouseError(ErrorCode.MethodNotFound, `method "${method}" not found`);
    return this.agentCall(method, params);
  }

  private becomeAdmin(): { role: 'admin' } {
    this.role = 'admin';
    this.clearHelloTimer();
    return { role: 'admin' };
  }

  private agentCall(method: AgentMethod, params: unknown): unknown {
    const e = this.d.engine;
    if (method === 'hello') {
      if (this.caller)
        throw new GatehouseError(
          ErrorCode.InvalidRequest,
          'hello was already called on this connection',
        );
      const { session, result } = e.hello(parseParams(agentMethods.hello.params, params));
      this.caller = { sessionId: session.sessionId, agent: session.agent };
      this.clearHelloTimer();
      this.d.onHello(this);
      return result;
    }
    const c = this.caller;
    if (!c) throw new GatehouseError(ErrorCode.HelloRequired, `call hello before ${method}`);
    return this.d.calls.run(method, c.sessionId, () =>
      e.call(c, method, parseParams(agentMethods[method].params, params)),
    );
  }

  /** A read whose batch could not be stored (see read-only-calls.ts): read and answer now. */
  private readAgain(id: Id | undefined, method: string, params: unknown): void {
    const send = (value: unknown) => this.send({ jsonrpc: '2.0', id, result: value });
    const fail = (error: unknown) => this.send({ jsonrpc: '2.0', id, error: toRpcError(error) });
    try {
      const result = this.dispatch(method, params);
      if (result instanceof Promise) result.then(send, fail);
      else send(result);
    } catch (error) {
      fail(error);
    }
  }

  private undoHello(): void {
    if (!this.caller) return;
    this.d.onHelloUndone(this);
    this.caller = undefined;
  }

  private send(message: object): void {
    this.channel.send(replyJson(message));
  }

  /** Answers with an error (id null), then closes the connection. */
  private refuse(code: ErrorCodeValue, message: string): void {
    if (this.channel.isClosing) return;
    this.channel.closeWith(replyJson({ jsonrpc: '2.0', id: null, error: { code, message } }));
  }

  private closeAfterAnswer(): void {
    // After the answer to this call has gone out (it is queued behind the same commit).
    const close = () => this.channel.close();
    process.nextTick(() => this.d.engine.whenDurable(close, close));
  }

  private clearHelloTimer(): void {
    this.helloTimer?.cancel();
    this.helloTimer = undefined;
  }
}

/** The error answer to a line that is not a call the session takes. */
class Refusal {
  readonly message: {
    jsonrpc: '2.0';
    id: Id | undefined;
    error: { code: number; message: string; data?: { retryAfterMs: number } };
  };

  constructor(
    id: Id | undefined,
    code: ErrorCodeValue,
    message: string,
    data?: { retryAfterMs: number },
  ) {
    this.message = {
      jsonrpc: '2.0',
      id,
      error: data ? { code, message, data } : { code, message },
    };
  }
}

const tooDeep = (): Refusal =>
  new Refusal(
    null,
    ErrorCode.InvalidRequest,
    `invalid request: JSON nested deeper than ${MAX_JSON_DEPTH} levels`,
  );

/** The id of a message that is not a valid envelope, when it has a usable one. */
function idOf(raw: unknown): Id {
  if (raw && typeof raw === 'object' && 'id' in raw) {
    const id = raw.id;
    if (typeof id === 'string' || typeof id === 'number') return id;
  }
  return null;
}
