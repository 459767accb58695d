import { EventEmitter } from 'node:events';
import { connect, type Socket } from 'node:net';
import { checkSocketBeforeConnect } from '../../shared/node/socket-dir';

/** An error answer from Gatehouse, with the protocol's code. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** Gatehouse could not be reached or the connection dropped. */
export class ConnectionError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'ConnectionError';
  }
}

/**
 * The socket or its directory is not safely ours (another owner, open mode, a symlink): the
 * client refused to connect. A ConnectionError, so everything that fails closed when
 * Gatehouse is unreachable fails closed here too.
 */
export class UnsafeSocketError extends ConnectionError {
  constructor(message: string, cause?: unknown) {
    super(message, cause);
    this.name = 'UnsafeSocketError';
  }
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/**
 * A minimal NDJSON JSON-RPC 2.0 client over a Unix socket or named pipe. Calls may overlap;
 * answers are matched by id. Server notifications are emitted as `notification` events.
 */
export class RpcClient extends EventEmitter {
  private socket?: Socket;
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
  connect(timeoutMs = 5000): Promise<void> {
    try {
      checkSocketBeforeConnect(this.socketPath);
    } catch (error) {
      return Promise.reject(
        new UnsafeSocketError(error instanceof Error ? error.message : String(error), error),
      );
    }
    return new Promise((resolve, reject) => {
      const socket = connect(this.socketPath);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new ConnectionError(`timed out connecting to Gatehouse at ${this.socketPath}`));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        this.socket = socket;
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => this.onData(chunk));
        socket.on('close', () => this.onClose());
        socket.on('error', () => {
          /* 'close' follows and fails what is pending */
        });
        resolve();
      });
      socket.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const why =
          error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
            ? 'Gatehouse is not running'
            : error.message;
        reject(new ConnectionError(`${why} (socket ${this.socketPath})`, error));
      });
    });
  }

  get connected(): boolean {
    return !!this.socket && !this.socket.destroyed;
  }

  call<T = unknown>(method: string, params?: object): Promise<T> {
    const socket = this.socket;
    if (!socket || socket.destroyed)
      return Promise.reject(new ConnectionError('not connected to Gatehouse'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      socket.write(
        `${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) })}\n`,
      );
    });
  }

  close(): void {
    this.socket?.end();
    this.socket?.destroy();
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
