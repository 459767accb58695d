import { GatehouseClient, type RequestAnswer } from '../sdk/client';
import { ConnectionError } from '../sdk/rpc-client';
import type { AgentParams } from '../../shared/protocol/method-map';

export interface LinkOptions {
  /** Resolved at the first connection, so it can use the MCP client's name. */
  agent: () => string;
  /** Stable for the life of the MCP session: reconnections resume the same Gatehouse session. */
  sessionKey: string;
  project?: string;
  socketPath?: string;
  connectTimeoutMs?: number;
}

/**
 * The MCP server's connection to Gatehouse: opened at the first tool call (so the server
 * starts even when Gatehouse is not running yet), reopened after a drop with the same
 * sessionKey, which resumes the same Gatehouse session.
 */
export class GatehouseLink {
  private client?: GatehouseClient | undefined;
  private connecting?: Promise<GatehouseClient> | undefined;

  constructor(private readonly o: LinkOptions) {}

  /** A connected client; throws ConnectionError when Gatehouse cannot be reached. */
  async get(): Promise<GatehouseClient> {
    if (this.client?.connected) return this.client;
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /**
   * Runs a call; when the connection dropped under it, reconnects and tries once more.
   * Agent calls other than `request` are idempotent or harmless to repeat.
   */
  async call<T>(fn: (c: GatehouseClient) => Promise<T>): Promise<T> {
    try {
      return await fn(await this.get());
    } catch (error) {
      if (!(error instanceof ConnectionError) || this.client?.connected) throw error;
      this.drop();
      return fn(await this.get());
    }
  }

  /**
   * Asks permission, failing closed; throws only when Gatehouse cannot be reached at all. The SDK turns a dropped connection into a `denied` by
   * `system`; one retry on a fresh connection is safe because the request carries a dedupeKey.
   */
  async request(p: AgentParams<'request'>): Promise<RequestAnswer> {
    const client = await this.get();
    const answer = await client.request(p);
    if (answer.requestId || client.connected || !answer.reason?.startsWith('GATEHOUSE_UNREACHABLE'))
      return answer;
    this.drop();
    return (await this.get()).request(p);
  }

  /** Closes the connection; the next call opens a new one (and resumes the session). */
  drop(): void {
    this.client?.close();
    this.client = undefined;
  }

  private async open(): Promise<GatehouseClient> {
    const client = await GatehouseClient.connect({
      agent: this.o.agent(),
      sessionKey: this.o.sessionKey,
      ...(this.o.project ? { project: this.o.project } : {}),
      labels: { client: 'mcp' },
      ...(this.o.socketPath ? { socketPath: this.o.socketPath } : {}),
      connectTimeoutMs: this.o.connectTimeoutMs ?? 3000,
      // This link reopens connections itself, call by call.
      reconnect: false,
    });
    client.on('close', () => {
      if (this.client === client) this.client = undefined;
    });
    this.client = client;
    return client;
  }
}
