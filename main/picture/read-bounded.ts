import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** What reading a file for a picture found: its text, that it is not there, or why not shown. */
export type ReadOutcome =
  { kind: 'text'; text: string } | { kind: 'absent' } | { kind: 'left-out'; why: string };

/** Bytes looked at for a NUL, the sign of a binary file (as git does). */
const SNIFF_BYTES = 8000;

/**
 * Reads one regular file for a diff, at most `maxBytes`: never follows a symbolic link (the
 * agent could point one at a file it may not read), never opens a FIFO or a device (which
 * could block or never end), and says why a file is left out (binary, too large).
 */
export async function readBounded(path: string, maxBytes: number): Promise<ReadOutcome> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'absent' };
    if (code === 'ELOOP') return { kind: 'left-out', why: 'a symbolic link: not followed' };
    return { kind: 'left-out', why: `could not be read (${code ?? 'error'})` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { kind: 'left-out', why: 'not a regular file' };
    if (info.size > maxBytes)
      return { kind: 'left-out', why: `too large to diff (${info.size} bytes on disk)` };
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (isBinary(bytes)) return { kind: 'left-out', why: 'a binary file on disk' };
    return { kind: 'text', text: bytes.toString('utf8') };
  } finally {
    await handle.close();
  }
}

export function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, SNIFF_BYTES).includes(0);
}
