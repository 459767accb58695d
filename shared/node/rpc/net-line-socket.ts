import { connect } from 'node:net';
import { connectFailure, type LineConnector } from './line-socket';
import { ConnectionError } from './rpc-errors';

/** A connection over Node's `net` (a Unix socket or a Windows named pipe). */
export const connectNet: LineConnector = (socketPath, timeoutMs, on) =>
  new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new ConnectionError(`timed out connecting to Gatehouse at ${socketPath}`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => on.onData(chunk));
      socket.on('close', () => on.onClose());
      socket.on('error', () => {
        /* 'close' follows and fails what is pending */
      });
      resolve({
        get open() {
          return !socket.destroyed;
        },
        write: (text) => void socket.write(text),
        sendTogetherThisTick: () => {
          socket.cork();
          process.nextTick(() => socket.uncork());
        },
        unref: () => void socket.unref(),
        close: () => {
          // A second end() on an ended stream builds an error (with its formatted message)
          // only to drop it: closing twice must cost nothing.
          if (socket.destroyed) return;
          socket.end();
          socket.destroy();
        },
      });
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new ConnectionError(connectFailure(error.code, error.message, socketPath), error));
    });
  });
