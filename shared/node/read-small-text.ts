import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * The text of a regular file of at most `maxBytes`, or undefined: not there, not a regular
 * file, or larger. Opened without blocking and checked on the open file, so a FIFO an agent
 * put in the project under a name the daemon reads (`.gitignore`, `.npmrc`) can neither
 * stall the daemon nor be swapped in between a check and the read.
 */
export function readSmallText(path: string, maxBytes = 1024 * 1024): string | undefined {
  return readSmallBytes(path, maxBytes)?.toString('utf8');
}

/** The bytes of a regular file of at most `maxBytes`, read as {@link readSmallText} reads. */
export function readSmallBytes(path: string, maxBytes: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > maxBytes) return undefined;
    const buffer = Buffer.alloc(info.size);
    const read = info.size ? readSync(fd, buffer, 0, info.size, 0) : 0;
    return buffer.subarray(0, read);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
