import { RpcError } from '../../shared/node/rpc/rpc-errors';
import type { HookConnector, HookLink } from '../../shared/node/hooks/relay/relay-link';
import { ErrorCode } from '../../shared/protocol/errors';
import { agentMethods, type AgentParams, type AgentResult } from '../../shared/protocol/method-map';
import { parseParams } from '../../shared/protocol/validate';
import type { AgentCaller, Engine, SessionMethod } from '../engine/engine';
import { toRpcError } from './rpc-error-replies';

/**
 * The http hook's session, opened on the daemon's engine in this process instead of over the
 * daemon's own socket (a connection, a hello line and a JSON round trip per tool call
 * cost more than the decision). It keeps what the socket does for a call and nothing less:
 * each call's params are parsed by the protocol's own schema, the engine's agent side is the
 * one a socket connection calls (kill switch included), the answer waits until what the call
 * wrote is committed, and failures reach the relay as the same RpcError the socket gives
 * (code, message, data), so the relay's fallbacks and stops work alike. The session counts as
 * connected (attach) from hello until `close`.
 */
export class EngineHookLink implements HookLink, HookConnector {
  private caller?: AgentCaller;
  /** Set by hello. Not a rejected promise made up front: an Error (its stack) per tool call. */
  private greeting?: Promise<void>;
  private closed = false;

  constructor(private readonly engine: Engine) {}

  hello(p: AgentParams<'hello'>): Promise<HookLink> {
    try {
      const { session } = this.engine.hello(parseParams(agentMethods.hello.params, p));
      this.caller = { sessionId: session.sessionId, agent: session.agent };
      this.engine.attach(session.sessionId);
      this.greeting = this.durable(undefined).catch((error: unknown) => {
        throw asRpcError(error);
      });
    } catch (error) {
      this.greeting = Promise.reject(asRpcError(error));
    }
    this.greeting.catch(() => undefined);
    return Promise.resolve(this);
  }

  get greeted(): Promise<void> {
    return this.greeting ?? Promise.reject(new Error('hello was not sent'));
  }

  gate(p: AgentParams<'gate'>): Promise<AgentResult<'gate'>> {
    return this.call('gate', p) as Promise<AgentResult<'gate'>>;
  }

  cancel(requestId: string): Promise<AgentResult<'cancel'>> {
    return this.call('cancel', { requestId }) as Promise<AgentResult<'cancel'>>;
  }

  log(p: AgentParams<'log'>): Promise<AgentResult<'log'>> {
    return this.call('log', p) as Promise<AgentResult<'log'>>;
  }

  note(p: AgentParams<'note'>): Promise<AgentResult<'note'>> {
    return this.call('note', p) as Promise<AgentResult<'note'>>;
  }

  async end(status: AgentParams<'end'>['status']): Promise<AgentResult<'end'>> {
    try {
      return (await this.call('end', { status })) as AgentResult<'end'>;
    } finally {
      this.close();
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.caller) this.engine.detach(this.caller.sessionId);
  }

  private async call(method: SessionMethod, params: unknown): Promise<unknown> {
    const c = this.caller;
    if (!c || this.closed)
      throw new RpcError(ErrorCode.HelloRequired, `call hello before ${method}`);
    try {
      const value: unknown = await this.engine.call(
        c,
        method,
        parseParams(agentMethods[method].params, params),
      );
      return await this.durable(value);
    } catch (error) {
      throw asRpcError(error);
    }
  }

  /** `value` once everything written so far is committed (no answer leaves before). */
  private durable<T>(value: T): Promise<T> {
    return new Promise((resolve, reject) =>
      this.engine.whenDurable(
        () => resolve(value),
        (error) => reject(error),
      ),
    );
  }
}

/** The error as the socket would have sent it, as the relay's RPC client reads it. */
function asRpcError(error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  const e = toRpcError(error);
  return new RpcError(e.code, e.message, e.data);
}
