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
