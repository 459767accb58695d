import { z } from 'zod';
import type { Socket } from 'node:net';
import { MAX_FRAME_BYTES } from '../../shared/protocol/constants';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import { AuthParams } from '../../shared/protocol/admin-methods';
import {
  type AgentParsedParams,
  agentMethods,
  isAdminMethod,
  isAgentMethod,
  type AgentMethod,
} from '../../shared/protocol/method-map';
import { parseParams } from '../../shared/protocol/validate';
import type { AgentCaller, Engine } from '../engine/engine';
import type { AdminService } from './admin-port';
import { secretsEqual } from './admin-token';
import { LineSplitter } from './ndjson';
import { toRpcError } from './rpc-errors';

const Envelope = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string().min(1),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  // Checked for shape only: each method's own schema parses the params. A record schema
  // here would copy every params object once more on every call.
  params: z
    .custom<Record<string, unknown> | unknown[]>(
      (v) => typeof v === 'object' && v !== null,
      'params must be an object or an array',
    )
    .optional(),
});
type Id = string | number | null;

/** The engine call behind each agent method after `hello`, with its parsed params. */
const SESSION_HANDLERS: {
  [K in Exclude<AgentMethod, 'hello'>]: (
    e: Engine,
    c: AgentCaller,
    p: AgentParsedParams<K>,
  ) => unknown;
} = {
  classify: (e, c, p) => e.classify(c, p),
  request: (e, c, p) => e.request(c, p),
  await: (e, c, p) => e.await(c, p),
  cancel: (e, c, p) => e.cancel(c, p),
  log: (e, c, p) => e.log(c, p),
  usage: (e, c, p) => e.usage(c, p),
  check: (e, c, p) => e.check(c, p),
  outcome: (e, c, p) => e.outcome(c, p),
  end: (e, c, p) => e.end(c, p),
  gate: (e, c, p) => e.gate(c, p),
};

export interface ConnectionDeps {
  engine: Engine;
  admin: AdminService;
  adminToken: () => string;
  /** Calls per second a connection may make before it gets -32004. */
  rateLimitPerSecond: number;
  onHello(conn: RpcConnection): void;
  onClose(conn: RpcConnection): void;
}

/**
 * One client of the agent socket: NDJSON framing, JSON-RPC 2.0 envelopes, the role
 * (`agent` until `auth` makes it `admin`), and dispatch. Calls run concurrently; each
 * response goes out when its call finishes, so a `request` waiting for a human never
 * holds up later calls.
 */
export class RpcConnection {
  caller?: AgentCaller;
  role: 'agent' | 'admin' = 'agent';
  private unsubscribe?: () => void;
  private tokens: number;
  private lastRefill = Date.now();

  constructor(
    readonly socket: Socket,
    private readonly d: ConnectionDeps,
  ) {
    this.tokens = d.rateLimitPerSecond;
    const splitter = new LineSplitter(MAX_FRAME_BYTES, (line) => this.onLine(line));
    socket.on('data', (chunk: Buffer) => {
      if (!splitter.push(chunk)) {
        this.send({
          jsonrpc: '2.0',
          id: null,
          error: {
            code: ErrorCode.FrameTooLarge,
            message: `frame larger than ${MAX_FRAME_BYTES} bytes`,
          },
        });
        this.flushOutbox();
        socket.end();
        socket.destroySoon?.();
      }
    });
    socket.on('close', () => {
      this.unsubscribe?.();
      d.onClose(this);
    });
    socket.on('error', () => {
      /* A client that vanished mid-write; 'close' follows. */
    });
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
    this.outbox += `${JSON.stringify(message)}\n`;
  }

  private flushOutbox(): void {
    const text = this.outbox;
    this.outbox = '';
    if (!this.socket.destroyed && this.socket.writable) this.socket.write(text);
  }

  private onLine(line: string): void {
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
    const env = Envelope.safeParse(raw);
    if (!env.success) {
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
    const { id, method, params } = env.data;
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
      this.d.engine.work.whenDurable(
        () => this.send(message),
        (error) => this.send({ jsonrpc: '2.0', id, error: toRpcError(error) }),
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

  private auth(params: unknown): { role: 'admin' } {
    const p = parseParams(AuthParams, params);
    if (!secretsEqual(p.token, this.d.adminToken()))
      throw new GatehouseError(ErrorCode.Unauthorized, 'unauthorized: wrong admin token');
    this.role = 'admin';
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
      this.d.onHello(this);
      return result;
    }
    const c = this.caller;
    if (!c) throw new GatehouseError(ErrorCode.HelloRequired, `call hello before ${method}`);
    if (e.controls.stateOf(c.agent) === 'killed' && method !== 'end')
      e.controls.assertRunning(c.agent);
    const handler = SESSION_HANDLERS[method] as (e: Engine, c: AgentCaller, p: unknown) => unknown;
    return handler(e, c, parseParams(agentMethods[method].params, params));
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
