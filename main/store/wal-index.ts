import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

const LITTLE_ENDIAN = endianness() === 'LE';

export interface WalLength {
  /** Bytes of frames in the log since it last started over (not the file's size: see below). */
  logBytes: number;
  /** Of which not yet copied into the database. */
  uncopiedBytes: number;
}

/**
 * How long the WAL is, from the WAL-index header at the start of the -shm file
 * (https://www.sqlite.org/walformat.html: szPage at byte 14 as u16, mxFrame at 16 and
 * nBackfill at 96 as u32, in native byte order); undefined when it cannot be read. A WAL that
 * started over keeps its file's size (SQLite overwrites it), so the file's size says how long
 * it once was, this how long it is. The checkpointer's worker reads the same header
 * (checkpointer.ts, in its own copy of this).
 */
export function walLength(dbFile: string): WalLength | undefined {
  const header = Buffer.alloc(100);
  let fd: number | undefined;
  try {
    fd = openSync(`${dbFile}-shm`, 'r');
    if (readSync(fd, header, 0, 100, 0) < 100) return undefined;
    const page = LITTLE_ENDIAN ? header.readUInt16LE(14) : header.readUInt16BE(14);
    const frames = LITTLE_ENDIAN ? header.readUInt32LE(16) : header.readUInt32BE(16);
    const copied = LITTLE_ENDIAN ? header.readUInt32LE(96) : header.readUInt32BE(96);
    const size = page === 1 ? 65536 : page;
    if (!(size > 0) || frames < copied) return undefined;
    return { logBytes: frames * size, uncopiedBytes: (frames - copied) * size };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
