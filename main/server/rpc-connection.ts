import { replyJson } from '../../shared/json-numbers';
import type { Socket } from 'node:net';
import { MAX_FRAME_BYTES } from '../../shared/protocol/constants';
import { ErrorCode, type ErrorCodeValue, GatehouseError } from '../../shared/protocol/errors';
import { AuthParams } from '../../shared/protocol/admin-methods';
import {
  agentMethods,
  isAdminMethod,
  isAgentMethod,
  type AgentMethod,
} from '../../shared/protocol/method-map';
import { parseParams } from '../../shared/protocol/validate';
import type { AgentCaller, Engine } from '../engine/engine';
import type { AdminService } from './admin-port';
import { secretsEqual } from '../../shared/node/secrets-equal';
import type { ConnectionCalls } from './call-budget';
import type { AuthAdmission, AuthAttempt, PeerAuthThrottle } from './peer-auth-throttle';
import { jsonNestsDeeperThan, LineSplitter, MAX_JSON_DEPTH } from './ndjson';
import type { LineScheduler, LineSource } from './line-scheduler';
import type { ByteBudget, SocketLimits } from './socket-limits';
import { toRpcError } from './rpc-errors';
import { envelopeOf, type Id } from './rpc-envelope';
import { readAgainAfter } from './read-only-calls';

/** Failed `auth` attempts after which a connection is closed (docs/protocol.md "Errors"). */
export const MAX_AUTH_FAILURES = 5;

export interface ConnectionDeps {
  engine: Engine;
  admin: AdminService;
  adminToken: () => string;
  /** Calls per second a connection may make before it gets -32004. */
  rateLimitPerSecond: number;
  /** The limit on failed `auth` attempts: shared, then per peer process during a flood. */
  authThrottle: PeerAuthThrottle;
  /** A number for this connection in audit entries (a Unix socket peer has no address). */
  connectionId: number;
  limits: SocketLimits;
  /** Bytes of unfinished lines held for all connections together. */
  buffered: ByteBudget;
  /** Shares handling time among connections. */
  scheduler: LineScheduler;
  /** This connection's share of the calls that may run at once (answered or not). */
  calls: ConnectionCalls;
  onHello(conn: RpcConnection): void;
  /** The hello's session could not be stored: the connection is as before its hello. */
  onHelloUndone(conn: RpcConnection): void;
  onClose(conn: RpcConnection): void;
}

/**
 * One client of the agent socket: NDJSON framing, JSON-RPC 2.0 envelopes, the role
 * (`agent` until `auth` makes it `admin`), and dispatch. Calls run concurrently; each
 * response goes out when its call finishes, so a `request` waiting for a human never
 * holds up later calls.
 */
export class RpcConnection implements LineSource {
  caller?: AgentCaller;
  role: 'agent' | 'admin' = 'agent';
  private unsubscribe?: () => void;
  private tokens: number;
  private lastRefill = Date.now();
  private authFailures = 0;
  /** Set once the connection is being closed by us: later lines are ignored. */
  private closing = false;

  private readonly splitter: LineSplitter;
  /** Complete lines read but not yet handled (at most one read's worth: see `pump`). */
  private lines: string[] = [];
  private nextLine = 0;
  /** Our unsent replies passed the high-water mark: reading stops until they drain. */
  private outputBlocked = false;
  private heldBytes = 0;
  private lineTimer?: NodeJS.Timeout;
  private helloTimer?: NodeJS.Timeout;

  constructor(
    readonly socket: Socket,
    private readonly d: ConnectionDeps,
  ) {
    this.tokens = d.rateLimitPerSecond;
    this.splitter = new LineSplitter(MAX_FRAME_BYTES, (line) => this.lines.push(line));
    const { limits } = d;
    this.helloTimer = setTimeout(
      () => this.refuse(ErrorCode.HelloRequired, `no hello within ${limits.helloTimeoutMs} ms`),
      limits.helloTimeoutMs,
    );
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('drain', () => {
      if (!this.outputBlocked || this.socket.writableLength > limits.outputHighWaterBytes) return;
      this.outputBlocked = false;
      this.pump();
    });
    socket.on('close', () => {
      this.closing = true;
      clearTimeout(this.lineTimer);
      this.clearHelloTimer();
      this.d.buffered.release(this.heldBytes);
      this.heldBytes = 0;
      this.unsubscribe?.();
      d.onClose(this);
    });
    socket.on('error', () => {
      /* A client that vanished mid-write; 'close' follows. */
    });
  }

  private onData(chunk: Buffer): void {
    if (this.closing) return;
    if (!this.splitter.push(chunk)) {
      return this.refuse(ErrorCode.FrameTooLarge, `frame larger than ${MAX_FRAME_BYTES} bytes`);
    }
    // Unfinished lines count against one budget for all connections.
    const held = this.splitter.pendingBytes;
    const grew = held - this.heldBytes;
    this.heldBytes = held;
    if (grew > 0 && !this.d.buffered.take(grew)) {
      this.heldBytes -= grew;
      return this.refuse(
        ErrorCode.RateLimited,
        'rate limited: the server holds too much unfinished input from all connections',
      );
    }
    if (grew < 0) this.d.buffered.release(-grew);
    this.watchUnfinishedLine(held > 0);
    this.pump();
  }

  /** A line may stay unfinished for `lineTimeoutMs` at most (a slow sender holds memory). */
  private watchUnfinishedLine(unfinished: boolean): void {
    if (!unfinished) {
      clearTimeout(this.lineTimer);
      this.lineTimer = undefined;
    } else if (!this.lineTimer) {
      const ms = this.d.limits.lineTimeoutMs;
      this.lineTimer = setTimeout(
        () => this.refuse(ErrorCode.InvalidRequest, `line left unfinished for more than ${ms} ms`),
        ms,
      );
    }
  }

  /**
   * Lines wait for the shared scheduler (one line per connection per round, see
   * line-scheduler.ts). Reading pauses while lines wait or replies are stuck above the
   * high-water mark, so a client that pipelines without reading is held back by its own
   * socket, not by our memory or the other clients' time.
   */
  private pump(): void {
    if (this.closing) return;
    if (this.nextLine < this.lines.length) {
      this.socket.pause();
      if (!this.outputBlocked) this.d.scheduler.wake(this);
    } else if (!this.outputBlocked && this.socket.isPaused()) {
      this.socket.resume();
    }
  }

  get waitingLines(): number {
    return this.lines.length - this.nextLine;
  }

  /** Called by the scheduler: handles one waiting line. */
  handleOne(): boolean {
    if (this.closing || this.outputBlocked || this.nextLine >= this.lines.length) return false;
    const line = this.lines[this.nextLine]!;
    this.lines[this.nextLine++] = '';
    this.onLine(line);
    if (this.nextLine >= this.lines.length) {
      this.lines = [];
      this.nextLine = 0;
      this.pump();
      return false;
    }
    return !this.closing && !this.outputBlocked;
  }

  /** Answers with an error (id null), then closes the connection. */
  private refuse(code: ErrorCodeValue, message: string): void {
    if (this.closing) return;
    this.send({ jsonrpc: '2.0', id: null, error: { code, message } });
    this.closeNow();
  }

  private clearHelloTimer(): void {
    clearTimeout(this.helloTimer);
    this.helloTimer = undefined;
  }

  notify(method: string, params: object): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** Answers finishing in the same tick (a committed batch) leave in one write. */
  private outbox = '';

  private send(message: object): void {
    const socket = this.socket;
    if (socket.destroyed || !socket.writable) return;
    if (this.outbox === '') process.nextTick(() => this.flushOutbox());
    this.outbox += `${replyJson(message)}\n`;
  }

  private flushOutbox(): void {
    const text = this.outbox;
    this.outbox = '';
    const socket = this.socket;
    if (text === '' || socket.destroyed || !socket.writable) return;
    socket.write(text);
    // Only once the socket itself wants a drain, so that a 'drain' surely comes to unblock us.
    if (
      !this.outputBlocked &&
      socket.writableNeedDrain &&
      socket.writableLength > this.d.limits.outputHighWaterBytes
    ) {
      this.outputBlocked = true;
      socket.pause();
    }
  }

  private onLine(line: string): void {
    if (this.closing) return;
    if (jsonNestsDeeperThan(line, MAX_JSON_DEPTH)) {
      return this.send({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: ErrorCode.InvalidRequest,
          message: `invalid request: JSON nested deeper than ${MAX_JSON_DEPTH} levels`,
        },
      });
    }
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      return this.send({
        jsonrpc: '2.0',
        id: null,
        error: { code: ErrorCode.ParseError, message: 'parse error: the line is not JSON' },
      });
    }
    if (Array.isArray(raw)) {
      return this.send({
        jsonrpc: '2.0',
        id: null,
        error: { code: ErrorCode.InvalidRequest, message: 'batches are not supported' },
      });
    }
    const env = envelopeOf(raw);
    if (!env) {
      const id =
        raw &&
        typeof raw === 'object' &&
        'id' in raw &&
        ['string', 'number'].includes(typeof raw.id)
          ? (raw.id as Id)
          : null;
      return this.send({
        jsonrpc: '2.0',
        id,
        error: {
          code: ErrorCode.InvalidRequest,
          message: 'invalid request: expected a JSON-RPC 2.0 object with a method',
        },
      });
    }
    const { id, method, params } = env;
    const isCall = id !== undefined;
    if (!this.takeToken()) {
      if (isCall)
        this.send({
          jsonrpc: '2.0',
          id,
          error: { code: ErrorCode.RateLimited, message: 'rate limited: slow down' },
        });
      return;
    }
    // The answer goes out only once what the call wrote is committed (group commit). Most
    // calls answer synchronously; they skip promises altogether on this, the hot path.
    const answer = (message: object) => {
      if (!isCall) return;
      this.d.engine.whenDurable(
        () => this.send(message),
        (error) => {
          // A hello whose session was never stored (disk full) did not happen: later calls
          // get "say hello first", not "session not found".
          if (method === 'hello') this.undoHello();
          // A call that failed by itself stored nothing: its own error is the answer.
          if ('error' in message) return this.send(message);
          if (readAgainAfter(method, error)) return this.readAgain(id ?? null, method, params);
          this.send({ jsonrpc: '2.0', id, error: toRpcError(error) });
        },
      );
    };
    const fail = (error: unknown) => answer({ jsonrpc: '2.0', id, error: toRpcError(error) });
    let result: unknown;
    try {
      result = this.dispatch(method, params);
    } catch (error) {
      return fail(error);
    }
    if (result instanceof Promise) {
      result.then((value: unknown) => answer({ jsonrpc: '2.0', id, result: value }), fail);
    } else {
      answer({ jsonrpc: '2.0', id, result });
    }
  }

  private dispatch(method: string, params: unknown): unknown {
    if (method === 'auth') return this.auth(params);
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

  /**
   * `auth`: a wrong token is audited and counts against this connection (closed after
   * {@link MAX_AUTH_FAILURES}) and against the throttle, which during a flood judges each
   * attempt by its own peer process (peer-auth-throttle.ts), so one client's guesses never
   * lock out another.
   */
  private auth(params: unknown): { role: 'admin' } | Promise<{ role: 'admin' }> {
    const attempt = { connectionId: this.d.connectionId, socket: this.socket };
    const admission = this.d.authThrottle.admit(attempt);
    return admission instanceof Promise
      ? admission.then((a) => this.authAdmitted(a, params, attempt))
      : this.authAdmitted(admission, params, attempt);
  }

  private authAdmitted(
    admission: AuthAdmission,
    params: unknown,
    attempt: AuthAttempt,
  ): { role: 'admin' } | Promise<never> {
    const throttle = this.d.authThrottle;
    if (!admission.compare) {
      const report = throttle.throttledAttempt();
      if (report) this.auditAuthFailure('auth.throttled', { attempts: report });
      this.countAuthFailure();
      throw new GatehouseError(
        ErrorCode.RateLimited,
        `rate limited: too many failed auth attempts from this process; try again in ${admission.retryAfterSeconds} s`,
      );
    }
    // A failure is answered once it has counted against its peer (see PeerAuthThrottle.failed).
    const fail = (reason: string, error: unknown): Promise<never> => {
      this.auditAuthFailure('auth.failed', { reason });
      // Counted now, so that the lines after the last allowed failure are not read; closed
      // once the answer is out.
      const last = this.countAuthFailure(false);
      return throttle.failed(attempt).then(() => {
        if (last) this.closeAfterAnswer();
        throw error;
      });
    };
    let token: string;
    try {
      token = parseParams(AuthParams, params).token;
    } catch (error) {
      return fail('invalid_params', error);
    }
    if (!secretsEqual(token, this.d.adminToken()))
      return fail(
        'wrong_token',
        new GatehouseError(ErrorCode.Unauthorized, 'unauthorized: wrong admin token'),
      );
    this.role = 'admin';
    this.clearHelloTimer();
    return { role: 'admin' };
  }

  private auditAuthFailure(type: string, data: Record<string, unknown>): void {
    this.d.engine.recordAudit(type, {
      ...(this.caller ? { sessionId: this.caller.sessionId, agent: this.caller.agent } : {}),
      data: { ...data, connection: this.d.connectionId, failures: this.authFailures + 1 },
    });
  }

  /** Counts a failed `auth`; at the last one allowed, stops reading (and closes, unless not `now`). */
  private countAuthFailure(now = true): boolean {
    if (++this.authFailures < MAX_AUTH_FAILURES) return false;
    this.closing = true;
    if (now) this.closeAfterAnswer();
    return true;
  }

  private closeAfterAnswer(): void {
    // After the answer to this call has gone out (it is queued behind the same commit).
    process.nextTick(() =>
      this.d.engine.whenDurable(
        () => this.closeNow(),
        () => this.closeNow(),
      ),
    );
  }

  /** Sends what is queued, then closes. */
  private closeNow(): void {
    this.closing = true;
    this.flushOutbox();
    this.socket.end();
    this.socket.destroySoon?.();
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
  private readAgain(id: Id, method: string, params: unknown): void {
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

  private takeToken(): boolean {
    const now = Date.now();
    const rate = this.d.rateLimitPerSecond;
    this.tokens = Math.min(rate, this.tokens + ((now - this.lastRefill) / 1000) * rate);
    this.lastRefill = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
