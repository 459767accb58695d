import { EventEmitter } from 'node:events';
import type { AgentParams, AgentResult } from '../../shared/protocol/method-map';
import type {
  ControlNotification,
  DecisionNotification,
} from '../../shared/protocol/agent-methods';
import { ConnectionError, RpcClient, RpcError } from './rpc-client';
import { resolveSocketPath } from './socket-path';

export interface ConnectOptions extends AgentParams<'hello'> {
  /** Defaults to the path PROTOCOL.md resolves from the environment. */
  socketPath?: string;
  connectTimeoutMs?: number;
}

export type RequestAnswer = AgentResult<'request'>;

export interface GatehouseClientEvents {
  decision: [DecisionNotification];
  control: [ControlNotification];
  close: [];
}

/**
 * An agent's connection to Gatehouse.
 *
 * ```ts
 * const gh = await GatehouseClient.connect({ agent: 'my-agent', project: process.cwd() });
 * const answer = await gh.request({ action: 'git_push', description: 'Push the fix to origin' });
 * if (answer.status === 'approved') await push();
 * ```
 *
 * `request` fails closed: when Gatehouse cannot be reached, or answers with an error, the
 * answer is `denied` by `system` with the reason, never an approval.
 */
export class GatehouseClient extends EventEmitter<GatehouseClientEvents> {
  private constructor(
    private readonly rpc: RpcClient,
    readonly sessionId: string,
    readonly hello: AgentResult<'hello'>,
  ) {
    super();
    rpc.on('notification', (method: string, params: unknown) => {
      if (method === 'decision') this.emit('decision', params as DecisionNotification);
      if (method === 'control') this.emit('control', params as ControlNotification);
    });
    rpc.on('close', () => this.emit('close'));
  }

  /** Connects and says hello; throws ConnectionError when Gatehouse is not running. */
  static async connect(o: ConnectOptions): Promise<GatehouseClient> {
    const { socketPath, connectTimeoutMs, ...hello } = o;
    const rpc = new RpcClient(socketPath ?? resolveSocketPath());
    await rpc.connect(connectTimeoutMs);
    try {
      const result = await rpc.call<AgentResult<'hello'>>('hello', hello);
      return new GatehouseClient(rpc, result.sessionId, result);
    } catch (error) {
      rpc.close();
      throw error;
    }
  }

  get connected(): boolean {
    return this.rpc.connected;
  }

  classify(p: AgentParams<'classify'>): Promise<AgentResult<'classify'>> {
    return this.rpc.call('classify', p);
  }

  /** Asks permission. Never throws: any failure is a `denied` answer with the reason. */
  async request(p: AgentParams<'request'>): Promise<RequestAnswer> {
    try {
      return await this.rpc.call<RequestAnswer>('request', p);
    } catch (error) {
      return failClosed(error);
    }
  }

  await(p: AgentParams<'await'>): Promise<AgentResult<'await'>> {
    return this.rpc.call('await', p);
  }

  cancel(requestId: string): Promise<AgentResult<'cancel'>> {
    return this.rpc.call('cancel', { requestId });
  }

  log(p: AgentParams<'log'>): Promise<AgentResult<'log'>> {
    return this.rpc.call('log', p);
  }

  usage(p: AgentParams<'usage'>): Promise<AgentResult<'usage'>> {
    return this.rpc.call('usage', p);
  }

  check(p: AgentParams<'check'> = {}): Promise<AgentResult<'check'>> {
    return this.rpc.call('check', p);
  }

  outcome(p: AgentParams<'outcome'>): Promise<AgentResult<'outcome'>> {
    return this.rpc.call('outcome', p);
  }

  end(status: AgentParams<'end'>['status'] = 'completed'): Promise<AgentResult<'end'>> {
    return this.rpc.call('end', { status });
  }

  /** Relays one native tool call of an agent adapter (PROTOCOL addition `gate`). */
  gate(p: AgentParams<'gate'>): Promise<AgentResult<'gate'>> {
    return this.rpc.call('gate', p);
  }

  close(): void {
    this.rpc.close();
  }
}

/** The not-approved answer an agent acts on when permission could not be obtained. */
export function failClosed(error: unknown): RequestAnswer {
  const reason =
    error instanceof ConnectionError
      ? `GATEHOUSE_UNREACHABLE: ${error.message}; not approved`
      : error instanceof RpcError
        ? `GATEHOUSE_ERROR ${error.code}: ${error.message}; not approved`
        : `GATEHOUSE_ERROR: ${error instanceof Error ? error.message : String(error)}; not approved`;
  return { requestId: '', status: 'denied', decidedBy: 'system', reason };
}

/**
 * Asks permission once without keeping a connection: connects, says hello, requests and
 * closes. Fails closed like {@link GatehouseClient.request}.
 */
export async function requestPermission(
  o: ConnectOptions,
  p: AgentParams<'request'>,
): Promise<RequestAnswer> {
  let client: GatehouseClient | undefined;
  try {
    client = await GatehouseClient.connect(o);
    return await client.request(p);
  } catch (error) {
    return failClosed(error);
  } finally {
    client?.close();
  }
}
