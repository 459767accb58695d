import { connect, type Socket } from 'node:net';

export type RawMessage = Record<string, unknown>;

/** A raw NDJSON connection: send lines, wait for answers or the close. */
export function rawSession(socketPath: string) {
  const socket: Socket = connect(socketPath);
  let buffer = '';
  const messages: RawMessage[] = [];
  const waiters: (() => void)[] = [];
  let closed = false;
  const connected = new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => {
    buffer += d;
    let nl;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      messages.push(JSON.parse(buffer.slice(0, nl)) as RawMessage);
      buffer = buffer.slice(nl + 1);
    }
    waiters.splice(0).forEach((w) => w());
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    closed = true;
    waiters.splice(0).forEach((w) => w());
  });
  let id = 0;
  return {
    socket,
    messages,
    connected,
    get closed() {
      return closed;
    },
    send(line: string) {
      socket.write(line.endsWith('\n') ? line : `${line}\n`);
    },
    /** Sends a call and resolves with its answer (or undefined when the connection closed). */
    async call(method: string, params?: object): Promise<RawMessage | undefined> {
      const myId = ++id + 1_000_000;
      socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: myId, method, params })}\n`);
      for (;;) {
        const m = messages.find((x) => x.id === myId);
        if (m) return m;
        if (closed) return undefined;
        await new Promise<void>((r) => waiters.push(r));
      }
    },
    async next(count = messages.length + 1): Promise<RawMessage | undefined> {
      while (messages.length < count && !closed) await new Promise<void>((r) => waiters.push(r));
      return messages[count - 1];
    },
    async waitClosed() {
      while (!closed) await new Promise<void>((r) => waiters.push(r));
    },
  };
}

export const errorCode = (m: RawMessage | undefined) =>
  (m?.error as { code: number } | undefined)?.code;

/** The resident set size of a process, in bytes, from /proc. */
export async function rssOf(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status);
  return kb ? Number(kb[1]) * 1024 : 0;
}
