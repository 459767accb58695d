import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
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
  try {
    if (readSync(shmDescriptor(`${dbFile}-shm`), header, 0, 100, 0) < 100) return undefined;
    const page = LITTLE_ENDIAN ? header.readUInt16LE(14) : header.readUInt16BE(14);
    const frames = LITTLE_ENDIAN ? header.readUInt32LE(16) : header.readUInt32BE(16);
    const copied = LITTLE_ENDIAN ? header.readUInt32LE(96) : header.readUInt32BE(96);
    const size = page === 1 ? 65536 : page;
    if (!(size > 0) || frames < copied) return undefined;
    return { logBytes: frames * size, uncopiedBytes: (frames - copied) * size };
  } catch {
    return undefined;
  }
}

/** The descriptor kept open on each -shm file read here, and the file it is open on. */
const shmDescriptors = new Map<string, { fd: number; ino: number }>();

/**
 * A descriptor of the -shm file at `path`, opened once and kept open while the file is there.
 *
 * Why never closed after each read: closing *any* descriptor of a file releases every POSIX
 * record lock the process holds on that file (fcntl(2)), and SQLite's WAL locks are such
 * locks on the -shm file, its "dead man switch" among them. Reading the header with an
 * open-read-close every tick dropped the daemon's locks: another process opening the database
 * (the sqlite3 shell, say) then took itself for the only one, reset the -shm file, and the
 * daemon, which maps that file, died of SIGBUS.
 *
 * A descriptor is closed only once SQLite has deleted its file (the database was closed, and
 * a new -shm file is at the path): no connection holds a lock on a deleted file.
 */
function shmDescriptor(path: string): number {
  const ino = statSync(path).ino;
  const kept = shmDescriptors.get(path);
  if (kept?.ino === ino) return kept.fd;
  if (kept) closeSync(kept.fd);
  shmDescriptors.delete(path);
  const fd = openSync(path, 'r');
  shmDescriptors.set(path, { fd, ino: fstatSync(fd).ino });
  return fd;
}
