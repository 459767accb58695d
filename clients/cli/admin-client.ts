import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AdminMethod, AdminParams, AdminResult } from '../../shared/protocol/method-map';
import { RpcClient } from '../sdk/rpc-client';
import { resolveHome, resolveSocketPath } from '../../shared/node/socket-path';

/** An admin connection: the socket plus `auth` with the token file of $GATEHOUSE_HOME. */
export class AdminClient {
  private constructor(private readonly rpc: RpcClient) {}

  static async connect(env: NodeJS.ProcessEnv = process.env): Promise<AdminClient> {
    const rpc = new RpcClient(resolveSocketPath(env));
    await rpc.connect();
    const tokenFile = join(resolveHome(env), 'admin.token');
    let token: string;
    try {
      token = readFileSync(tokenFile, 'utf8').trim();
    } catch {
      rpc.close();
      throw new Error(`cannot read the admin token ${tokenFile}; is GATEHOUSE_HOME the daemon's?`);
    }
    try {
      await rpc.call('auth', { token });
    } catch (error) {
      // Closed at once: an open connection kept the CLI alive until the daemon's hello
      // timeout (30 s) after it had printed the error.
      rpc.close();
      throw error;
    }
    return new AdminClient(rpc);
  }

  call<K extends AdminMethod>(method: K, params: AdminParams<K>): Promise<AdminResult<K>> {
    return this.rpc.call(method, params as object);
  }

  /** Streams engine events until the connection closes. */
  async subscribe(onEvent: (event: unknown) => void): Promise<void> {
    this.rpc.on(
      'notification',
      (method: string, params: unknown) => method === 'event' && onEvent(params),
    );
    await this.rpc.call('subscribe');
  }

  close(): void {
    this.rpc.close();
  }
}
