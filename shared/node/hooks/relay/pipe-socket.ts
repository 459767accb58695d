import { getSystemErrorName } from 'node:util';
import {
  connectFailure,
  type LineConnector,
  type LineHandlers,
  type LineSocket,
} from '../../rpc/line-socket';
import { ConnectionError } from '../../rpc/rpc-errors';

/**
 * The hook relay's connection to the daemon, on libuv's pipe handle directly (Node's own
 * `pipe_wrap` and `stream_wrap` bindings, the ones `net.Socket` is built on) instead of a
 * `net.Socket`. A hook process lives for one round trip, and loading `net` with its stream
 * machinery, then setting up and tearing down a Socket, cost it about 4 ms of CPU: more than
 * half of what the hook may add to a bare Node start (bench/hook-latency.bench.mjs).
 *
 * The bindings are internal to Node. They are looked up and checked once; when anything is not
 * as expected (a Node major not in VERIFIED_NODE_MAJORS, Windows, `--pending-deprecation` or
 * `--throw-deprecation`, which would warn about or refuse `process.binding`), the relay uses
 * Node's `net` as before
 * (../../rpc/net-line-socket.ts), so the connection, and what the relay answers, are the same
 * either way. Errors inside the callbacks close the connection, which fails what is pending:
 * the relay then answers with its fallback, never by crashing (a crashed hook lets the agent's
 * call through). The handle is used exactly as net.js uses it (same calls, same properties,
 * callbacks always functions: Node aborts the process on a non-function `onread`);
 * test/unit/shared/node/hooks/relay/pipe-socket.test.ts runs every path, the daemon closing first included.
 */

interface StreamReq {
  oncomplete: (status: number) => void;
}
interface WriteReq extends StreamReq {
  handle: PipeHandle;
  async: boolean;
}
interface PipeHandle {
  connect(req: StreamReq, path: string): number;
  readStart(): number;
  writeUtf8String(req: WriteReq, text: string): number;
  close(callback: () => void): void;
  unref(): void;
  /** Node checks that this is a function, aborting the process otherwise: never unset it. */
  onread: (arrayBuffer: ArrayBuffer) => void;
}
interface PipeBindings {
  newPipe(): PipeHandle;
  newConnectReq(): StreamReq;
  newWriteReq(): WriteReq;
  /** libuv's read result and offset, and whether the last write was left to the loop. */
  state: Int32Array;
  kReadBytesOrError: number;
  kArrayBufferOffset: number;
  kLastWriteWasAsync: number;
}

type Binding = (name: string) => Record<string, unknown>;
const ignore = (): void => undefined;
type Ctor<T> = new (...args: unknown[]) => T;

/**
 * Node major versions whose pipe bindings test/unit/shared/node/hooks/relay/pipe-socket.test.ts and
 * test/integration/hooks/hook-relay-process.test.ts have run against. Internals can change in any
 * release in ways a shape check does not see, and a hook that aborts lets the agent's call
 * through; so any other Node uses `net`. To add a version, run those tests under it.
 */
const VERIFIED_NODE_MAJORS: readonly number[] = [20];

/** What decides whether the bindings may be tried: this process's, unless a test says. */
export interface BindingsHost {
  platform: NodeJS.Platform;
  nodeVersion: string;
  execArgv: readonly string[];
  env: NodeJS.ProcessEnv;
}

const thisProcess = (): BindingsHost => ({
  platform: process.platform,
  nodeVersion: process.versions.node,
  execArgv: process.execArgv,
  env: process.env,
});

/**
 * Whether the pipe bindings may be tried at all: not on Windows, only on a verified Node
 * major, and not where Node would warn about (or throw on) `process.binding`.
 */
export function mayUsePipeBindings(host: BindingsHost = thisProcess()): boolean {
  const flags = [...host.execArgv, host.env.NODE_OPTIONS ?? ''].join(' ');
  const wouldWarn =
    /--(pending|throw)-deprecation/.test(flags) || host.env.NODE_PENDING_DEPRECATION === '1';
  const major = Number(host.nodeVersion.split('.')[0]);
  return host.platform !== 'win32' && VERIFIED_NODE_MAJORS.includes(major) && !wouldWarn;
}

let bindings: PipeBindings | null | undefined;

/** The pipe bindings when they are there and look as this file expects; null otherwise. */
export function pipeBindings(): PipeBindings | null {
  if (bindings !== undefined) return bindings;
  bindings = null;
  if (!mayUsePipeBindings()) return bindings;
  try {
    const binding = (process as unknown as { binding: Binding }).binding.bind(process);
    const pipe = binding('pipe_wrap');
    const stream = binding('stream_wrap');
    const { Pipe, PipeConnectWrap, constants } = pipe as {
      Pipe: unknown;
      PipeConnectWrap: unknown;
      constants?: { SOCKET?: unknown };
    };
    const { WriteWrap, streamBaseState, kReadBytesOrError, kArrayBufferOffset } = stream;
    const { kLastWriteWasAsync } = stream;
    if (
      typeof Pipe !== 'function' ||
      typeof PipeConnectWrap !== 'function' ||
      typeof WriteWrap !== 'function' ||
      typeof constants?.SOCKET !== 'number' ||
      !(streamBaseState instanceof Int32Array) ||
      typeof kReadBytesOrError !== 'number' ||
      typeof kArrayBufferOffset !== 'number' ||
      typeof kLastWriteWasAsync !== 'number'
    )
      return bindings;
    const socketType = constants.SOCKET;
    const proto = (Pipe as { prototype: Record<string, unknown> }).prototype;
    if (
      !['connect', 'readStart', 'writeUtf8String', 'close', 'unref'].every(
        (m) => typeof proto[m] === 'function',
      )
    )
      return bindings;
    bindings = {
      newPipe: () => new (Pipe as Ctor<PipeHandle>)(socketType),
      newConnectReq: () => new (PipeConnectWrap as Ctor<StreamReq>)(),
      newWriteReq: () => new (WriteWrap as Ctor<WriteReq>)(),
      state: streamBaseState,
      kReadBytesOrError,
      kArrayBufferOffset,
      kLastWriteWasAsync,
    };
  } catch {
    bindings = null;
  }
  return bindings;
}

const failure = (status: number, socketPath: string): ConnectionError => {
  let code: string | undefined;
  try {
    code = getSystemErrorName(status);
  } catch {
    code = undefined;
  }
  const message = `connect ${code ?? status} ${socketPath}`;
  return new ConnectionError(connectFailure(code, message, socketPath));
};

/** Node's `net`, loaded only when used (the daemon's http hook; the fallback below). */
export const connectNetWhenNeeded: LineConnector = (socketPath, timeoutMs, on) =>
  import('../../rpc/net-line-socket').then(({ connectNet }) =>
    connectNet(socketPath, timeoutMs, on),
  );

/**
 * Connects over the pipe bindings, or over `net` where they cannot be used. Same contract as
 * {@link LineConnector}: resolves once connected, rejects with a ConnectionError.
 */
export const connectPipe: LineConnector = (socketPath, timeoutMs, on) => {
  const b = pipeBindings();
  if (!b) return connectNetWhenNeeded(socketPath, timeoutMs, on);
  return new Promise((resolve, reject) => {
    let handle: PipeHandle;
    const req = b.newConnectReq();
    let timer: NodeJS.Timeout | undefined;
    // Connected, failed or given up: the timeout is not armed after that.
    let settled = false;
    const settle = () => {
      settled = true;
      if (timer) clearTimeout(timer);
    };
    try {
      handle = b.newPipe();
      req.oncomplete = (status) => {
        settle();
        if (status < 0) {
          handle.close(() => undefined);
          reject(failure(status, socketPath));
          return;
        }
        try {
          resolve(openPipe(b, handle, on));
        } catch {
          handle.close(() => undefined);
          reject(new ConnectionError(`cannot read from Gatehouse at ${socketPath}`));
        }
      };
      const status = handle.connect(req, socketPath);
      if (status < 0) {
        settle();
        handle.close(() => undefined);
        reject(failure(status, socketPath));
        return;
      }
      // The timeout is armed once this turn of the event loop is over, not before connecting:
      // a socket that is listening has completed the connection by then, so a hook process
      // starts no timer before its request is out. (Node's timers cost a fresh process about
      // 0.3 ms on first use, setTimeout and clearTimeout together: bench/hook-latency.)
      setImmediate(() => {
        if (settled) return;
        timer = setTimeout(() => {
          settled = true;
          // libuv still completes the request (cancelled) when the handle closes.
          req.oncomplete = ignore;
          handle.close(() => undefined);
          reject(new ConnectionError(`timed out connecting to Gatehouse at ${socketPath}`));
        }, timeoutMs);
      });
    } catch (error) {
      settle();
      reject(new ConnectionError(`cannot connect to Gatehouse at ${socketPath}`, error));
    }
  });
};

const NEWLINE = 0x0a;

/** A connected pipe as a {@link LineSocket}: whole lines in, one write per tick out. */
function openPipe(b: PipeBindings, handle: PipeHandle, on: LineHandlers): LineSocket {
  let open = true;
  let closing = false;
  // Bytes of a line not yet complete: UTF-8 is decoded a whole line at a time.
  let partial: Buffer[] = [];
  let outbox = '';
  const inFlight = new Set<WriteReq>();

  const close = () => {
    if (closing) return;
    closing = true;
    open = false;
    handle.onread = ignore;
    handle.close(() => on.onClose());
  };

  handle.onread = (arrayBuffer: ArrayBuffer) => {
    try {
      const n = b.state[b.kReadBytesOrError]!;
      if (n < 0) return close(); // End of stream, or an error: either way it is over.
      if (n === 0) return;
      const bytes = Buffer.from(arrayBuffer, b.state[b.kArrayBufferOffset]!, n);
      const last = bytes.lastIndexOf(NEWLINE);
      if (last === -1) {
        partial.push(bytes);
        return;
      }
      const whole = Buffer.concat([...partial, bytes.subarray(0, last + 1)]);
      partial = last + 1 < n ? [bytes.subarray(last + 1)] : [];
      on.onData(whole.toString('utf8'));
    } catch {
      close();
    }
  };
  if (handle.readStart() < 0) throw new Error('cannot read from the socket');

  const flush = () => {
    const text = outbox;
    outbox = '';
    if (!open || !text) return;
    try {
      const req = b.newWriteReq();
      req.handle = handle;
      req.async = false;
      req.oncomplete = (status) => {
        inFlight.delete(req);
        if (status < 0) close();
      };
      if (handle.writeUtf8String(req, text) < 0) return close();
      // Left to the loop: keep the request until libuv is done with it.
      if (b.state[b.kLastWriteWasAsync]) inFlight.add(req);
    } catch {
      close();
    }
  };

  return {
    get open() {
      return open;
    },
    write(text) {
      if (!open) return;
      // Everything written in this tick leaves in one write: the hello and the call behind it.
      if (!outbox) process.nextTick(flush);
      outbox += text;
    },
    sendTogetherThisTick: () => undefined,
    unref: () => handle.unref(),
    close,
  };
}
