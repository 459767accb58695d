import { fstatSync, readSync, writeSync } from 'node:fs';

/**
 * The hook's stdin and stdout without Node's stream objects: a hook process runs before every
 * tool call, and setting up `process.stdin` (a pipe stream with its event machinery) cost it
 * about 3 ms of a ~10 ms budget. A blocking read of fd 0 to its end, and a blocking write of
 * the one answer to fd 1, are what a relay needs. When an fd is non-blocking (an agent may
 * hand over such a pipe) the read or write would fail with EAGAIN; the rest then goes through
 * the streams as before, so the payload and the answer are the same either way.
 */

const STDIN_FD = 0;
const STDOUT_FD = 1;
const CHUNK = 64 * 1024;

/**
 * True when stdin is a terminal: a person ran the hook by hand. Only a character device can be
 * one; `node:tty` (which loads `net`) is asked only then, and an agent's pipe never needs it.
 */
export async function stdinIsTerminal(): Promise<boolean> {
  try {
    if (!fstatSync(STDIN_FD).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  const { isatty } = await import('node:tty');
  return isatty(STDIN_FD);
}

const wouldBlock = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EAGAIN' || code === 'EWOULDBLOCK';
};

/** What a stream still has, after `head`; what was read so far when it fails. */
function readRest(stream: NodeJS.ReadableStream, head: Buffer[]): Promise<string> {
  return new Promise((resolve) => {
    const chunks = [...head];
    const done = () => resolve(Buffer.concat(chunks).toString('utf8'));
    stream.on('data', (chunk: Buffer | string) =>
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk),
    );
    stream.on('end', done);
    stream.on('error', done);
  });
}

/**
 * The whole of stdin as UTF-8. A read error other than EAGAIN ends the payload there, as the
 * stream's `error` did: the adapter then finds it unreadable and the fallback answers.
 */
export function readStdin(): Promise<string> {
  // Windows pipes report their end as an error of their own: the stream knows them.
  if (process.platform === 'win32') return readRest(process.stdin, []);
  const chunks: Buffer[] = [];
  for (;;) {
    const buffer = Buffer.allocUnsafe(CHUNK);
    let n: number;
    try {
      n = readSync(STDIN_FD, buffer, 0, CHUNK, null);
    } catch (error) {
      if (wouldBlock(error)) return readRest(process.stdin, chunks);
      break;
    }
    if (n === 0) break;
    chunks.push(buffer.subarray(0, n));
  }
  return Promise.resolve(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Writes `text` to stdout and resolves once it is handed to the system (or cannot be: a
 * reader that went away has nobody left to answer).
 */
export function writeStdout(text: string): Promise<void> {
  if (!text) return Promise.resolve();
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  if (process.platform !== 'win32') {
    try {
      while (offset < bytes.length)
        offset += writeSync(STDOUT_FD, bytes, offset, bytes.length - offset);
      return Promise.resolve();
    } catch (error) {
      if (!wouldBlock(error)) return Promise.resolve();
    }
  }
  return new Promise((resolve) => process.stdout.write(bytes.subarray(offset), () => resolve()));
}
