import type { AgentParams, AgentResult } from '../../../protocol/method-map';
import type { LineConnector } from '../../rpc/line-socket';
import { RpcChannel } from '../../rpc/rpc-channel';

/** What the relay asks Gatehouse over its one connection. */
export interface HookLink {
  /**
   * How the session's `hello` went: resolves once Gatehouse accepted it, rejects with its
   * error. Calls may be made before it settles; they are written behind the hello.
   */
  readonly greeted: Promise<void>;
  gate(p: AgentParams<'gate'>): Promise<AgentResult<'gate'>>;
  cancel(requestId: string): Promise<AgentResult<'cancel'>>;
  log(p: AgentParams<'log'>): Promise<AgentResult<'log'>>;
  note(p: AgentParams<'note'>): Promise<AgentResult<'note'>>;
  end(status: AgentParams<'end'>['status']): Promise<AgentResult<'end'>>;
  close(): void;
}

/**
 * What opens a hook's session: the command hook's connection to the socket ({@link RelayLink}),
 * or the daemon's own engine when the daemon hosts the relay (its http hook,
 * main/server/hook-http-link.ts).
 */
export interface HookConnector {
  hello(p: AgentParams<'hello'>): Promise<HookLink>;
  close(): void;
}

/**
 * The hook's one connection to Gatehouse, opened while the payload is still being read (the
 * socket does not depend on it) and said hello to once the payload names the session. No
 * reconnects: an unreachable daemon is the fallback, at once.
 *
 * The first call goes out right behind the hello, without waiting for its answer: the daemon
 * handles the lines of a connection in order (main/server/line-channel.ts), so the call is
 * handled in the session the hello opened, and the two share one round trip. When the hello
 * fails, the call behind it fails too (-32010, no session), and `greeted` has the reason.
 */
export class RelayLink implements HookLink, HookConnector {
  private readonly rpc: RpcChannel;
  private readonly opened: Promise<void>;
  private closed = false;
  private greeting?: Promise<void>;
  private readonly endsWithProcess: boolean;

  /**
   * `connector` opens the connection (pipe-socket.ts). `endsWithProcess`: the process exits
   * right after its answer (the command hook), so `close()` only lets go of the connection
   * and the exit closes it (RpcChannel.unref).
   */
  constructor(
    socketPath: string,
    connectTimeoutMs: number,
    o: { connector: LineConnector; endsWithProcess?: boolean },
  ) {
    this.endsWithProcess = o.endsWithProcess ?? false;
    this.rpc = new RpcChannel(socketPath);
    this.opened = this.rpc.connectWith(o.connector, connectTimeoutMs).then(() => {
      // Closed before the socket was up: let the process end.
      if (this.closed) this.letGo();
    });
    // Whoever says hello sees the failure; nobody may be left to (an unreadable payload).
    this.opened.catch(() => undefined);
  }

  /**
   * Says hello with the session of this agent session once the socket is open, without
   * waiting for the answer (see `greeted`); rejects when the connection cannot be opened.
   */
  async hello(p: AgentParams<'hello'>): Promise<HookLink> {
    await this.opened;
    // The call that follows in this tick goes out in the same write as the hello.
    this.rpc.sendTogetherThisTick();
    this.greeting = this.rpc.call<AgentResult<'hello'>>('hello', p).then(() => undefined);
    // Whoever uses the link awaits it; until then it must not count as unhandled.
    this.greeting.catch(() => undefined);
    return this;
  }

  get greeted(): Promise<void> {
    return this.greeting ?? Promise.reject(new Error('hello was not sent'));
  }

  gate(p: AgentParams<'gate'>): Promise<AgentResult<'gate'>> {
    return this.rpc.call('gate', p);
  }

  cancel(requestId: string): Promise<AgentResult<'cancel'>> {
    return this.rpc.call('cancel', { requestId });
  }

  log(p: AgentParams<'log'>): Promise<AgentResult<'log'>> {
    return this.rpc.call('log', p);
  }

  note(p: AgentParams<'note'>): Promise<AgentResult<'note'>> {
    return this.rpc.call('note', p);
  }

  async end(status: AgentParams<'end'>['status']): Promise<AgentResult<'end'>> {
    try {
      return await this.rpc.call('end', { status });
    } finally {
      this.close();
    }
  }

  close(): void {
    this.closed = true;
    this.letGo();
  }

  private letGo(): void {
    if (this.endsWithProcess) this.rpc.unref();
    else this.rpc.close();
  }
}
