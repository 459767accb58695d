/** What an RPC channel needs of its connection: lines out, text in, and an end. */
export interface LineSocket {
  /** False once the connection is closed (either side). */
  readonly open: boolean;
  write(text: string): void;
  /** Sends what is written until the end of this tick in one write. */
  sendTogetherThisTick(): void;
  /** It no longer keeps the process running; the system closes it when the process exits. */
  unref(): void;
  /** Closes the connection; `onClose` follows. Closing again does nothing. */
  close(): void;
}

export interface LineHandlers {
  /** Text as it arrives (UTF-8, not necessarily whole lines). */
  onData(text: string): void;
  /** The connection closed, whoever closed it. Called once. */
  onClose(): void;
}

/** Opens a connection to the socket at `socketPath`; rejects with a ConnectionError. */
export type LineConnector = (
  socketPath: string,
  timeoutMs: number,
  on: LineHandlers,
) => Promise<LineSocket>;

/** The message for a connection that could not be opened, by its system error code. */
export const connectFailure = (
  code: string | undefined,
  message: string,
  socketPath: string,
): string =>
  `${code === 'ENOENT' || code === 'ECONNREFUSED' ? 'Gatehouse is not running' : message} (socket ${socketPath})`;
