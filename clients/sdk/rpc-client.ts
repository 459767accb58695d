import { connectNet } from '../../shared/node/rpc/net-line-socket';
import { RpcChannel } from '../../shared/node/rpc/rpc-channel';

export { RpcError, ConnectionError, UnsafeSocketError } from '../../shared/node/rpc/rpc-errors';

/**
 * A minimal NDJSON JSON-RPC 2.0 client over a Unix socket or named pipe (Node's `net`). Calls
 * may overlap; answers are matched by id. Server notifications are emitted as `notification`
 * events. See {@link RpcChannel}.
 */
export class RpcClient extends RpcChannel {
  /**
   * Connects after checking the socket's directory and file (see shared/node/socket-dir.ts);
   * rejects with {@link UnsafeSocketError} before any byte is sent when they are not ours.
   */
  connect(timeoutMs = 5000): Promise<void> {
    return this.connectWith(connectNet, timeoutMs);
  }
}
