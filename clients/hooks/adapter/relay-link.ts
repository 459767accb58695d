import type { AgentParams, AgentResult } from '../../../shared/protocol/method-map';
import { RpcClient } from '../../sdk/rpc-client';

/** What the relay asks Gatehouse over its one connection. */
export interface HookLink {
  gate(p: AgentParams<'gate'>): Promise<AgentResult<'gate'>>;
  cancel(requestId: string): Promise<AgentResult<'cancel'>>;
  log(p: AgentParams<'log'>): Promise<AgentResult<'log'>>;
  end(status: AgentParams<'end'>['status']): Promise<AgentResult<'end'>>;
  close(): void;
}

/**
 * The hook's one connection to Gatehouse, opened while the payload is still being read (the
 * socket does not depend on it) and said hello to once the payload names the session. No
 * reconnects: an unreachable daemon is the fallback, at once.
 */
export class RelayLink implements HookLink {
  private readonly rpc: RpcClient;
  private readonly opened: Promise<void>;
  private closed = false;

  constructor(socketPath: string, connectTimeoutMs: number) {
    this.rpc = new RpcClient(socketPath);
    this.opened = this.rpc.connect(connectTimeoutMs).then(() => {
      // Closed before the socket was up: let the process end.
      if (this.closed) this.rpc.close();
    });
    // Whoever says hello sees the failure; nobody may be left to (an unreadable payload).
    this.opened.catch(() => undefined);
  }

  /** Says hello with the session of this agent session; rejects as the connection or hello does. */
  async hello(p: AgentParams<'hello'>): Promise<HookLink> {
    await this.opened;
    await this.rpc.call<AgentResult<'hello'>>('hello', p);
    return this;
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

  async end(status: AgentParams<'end'>['status']): Promise<AgentResult<'end'>> {
    try {
      return await this.rpc.call('end', { status });
    } finally {
      this.close();
    }
  }

  close(): void {
    this.closed = true;
    this.rpc.close();
  }
}
