import { EventEmitter } from 'node:events';
import { checkSocketBeforeConnect } from '../socket-dir';
import type { LineConnector, LineSocket } from './line-socket';
import { ConnectionError, RpcError, UnsafeSocketError } from './rpc-errors';

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/**
 * A minimal NDJSON JSON-RPC 2.0 client over a Unix socket or named pipe, whatever opens the
 * connection (a {@link LineConnector}: Node's `net` for the SDK, a lighter one for the hook
 * relay). Calls may overlap; answers are matched by id. Server notifications are emitted as
 * `notification` events.
 */
export class RpcChannel extends EventEmitter {
  private socket?: LineSocket | undefined;
  private buffer = '';
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(readonly socketPath: string) {
    super();
  }

  /**
   * Connects after checking the socket's directory and file (see shared/node/socket-dir.ts);
   * rejects with {@link UnsafeSocketError} before any byte is sent when they are not ours.
   */
  connectWith(connector: LineConnector, timeoutMs: number): Promise<void> {
    try {
      checkSocketBeforeConnect(this.socketPath);
    } catch (error) {
      return Promise.reject(
        new UnsafeSocketError(error instanceof Error ? error.message : String(error), error),
      );
    }
    return connector(this.socketPath, timeoutMs, {
      onData: (text) => this.onData(text),
      onClose: () => this.onClose(),
    }).then((socket) => {
      this.socket = socket;
    });
  }

  get connected(): boolean {
    return !!this.socket && this.socket.open;
  }

  call<T = unknown>(method: string, params?: object): Promise<T> {
    const socket = this.socket;
    if (!socket || !socket.open)
      return Promise.reject(new ConnectionError('not connected to Gatehouse'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      socket.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  /**
   * Sends the calls made until the end of this tick in one write (one wake-up of the daemon,
   * which then handles and answers them in one turn) instead of one write each.
   */
  sendTogetherThisTick(): void {
    this.socket?.sendTogetherThisTick();
  }

  /**
   * Leaves the connection to the end of the process, for a process that exits as soon as it
   * has its answers (the hook relay): it no longer keeps Node running, and the system closes
   * it at exit, which spares the teardown of {@link close}.
   */
  unref(): void {
    this.socket?.unref();
  }

  /** Closes the connection; closing again (or before it opened) does nothing. */
  close(): void {
    this.socket?.close();
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) !== -1) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      if (!line.trim()) continue;
      let msg: {
        id?: number | null;
        method?: string;
        params?: unknown;
        result?: unknown;
        error?: { code: number; message: string; data?: unknown };
      };
      try {
        msg = JSON.parse(line);
      } catch {
        continue;
      }
      if (msg.method && msg.id === undefined) {
        this.emit('notification', msg.method, msg.params);
        continue;
      }
      const p = typeof msg.id === 'number' ? this.pending.get(msg.id) : undefined;
      if (!p) {
        if (msg.error)
          this.emit(
            'protocolError',
            new RpcError(msg.error.code, msg.error.message, msg.error.data),
          );
        continue;
      }
      this.pending.delete(msg.id as number);
      if (msg.error) p.reject(new RpcError(msg.error.code, msg.error.message, msg.error.data));
      else p.resolve(msg.result);
    }
  }

  private onClose(): void {
    this.socket = undefined;
    for (const p of this.pending.values())
      p.reject(new ConnectionError('connection to Gatehouse closed'));
    this.pending.clear();
    this.emit('close');
  }
}
