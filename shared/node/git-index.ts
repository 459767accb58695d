import { statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { ownGitDir } from './git-config-includes';
import { readSmallBytes } from './read-small-text';
import { repositoryTop } from './git-hooks-path';

/** An index larger than this is not read: every file counts as tracked (the safe side). */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

/**
 * The paths a git index lists (relative to the repository's top, with `/`), or undefined when
 * it cannot be read for sure: a version other than 2-4, a sparse index (a folder stands for
 * the files under it), or anything that does not parse. Read as git's
 * Documentation/gitformat-index.txt lays it out: 12 bytes of header, then per entry 40 bytes
 * of stat data, the object name (20 bytes, or 32 in a SHA-256 repository), 16 bits of flags
 * (and 16 more in version 3 and later when the flags say so) and the path: NUL-terminated and
 * padded to a multiple of 8 bytes in versions 2 and 3, prefix-compressed against the one
 * before in version 4.
 */
export function indexPaths(data: Buffer): Set<string> | undefined {
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = data.readUInt32BE(4);
  const count = data.readUInt32BE(8);
  if (version < 2 || version > 4) return undefined;
  for (const hashBytes of [20, 32]) {
    const paths = entries(data, version, count, hashBytes);
    if (paths) return paths;
  }
  return undefined;
}

function entries(
  data: Buffer,
  version: number,
  count: number,
  hashBytes: number,
): Set<string> | undefined {
  const paths = new Set<string>();
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const start = at;
    if (at + 40 + hashBytes + 2 > data.length) return undefined;
    const mode = data.readUInt32BE(at + 24);
    // A sparse index's folder entry stands for files it does not list.
    if ((mode & 0o170000) === 0o040000) return undefined;
    at += 40 + hashBytes;
    const flags = data.readUInt16BE(at);
    at += 2;
    if (flags & 0x4000) {
      if (version < 3) return undefined;
      at += 2;
    }
    let strip = 0;
    if (version === 4) {
      // How many bytes of the path before to drop, as git's varint (gitformat-index.txt).
      let byte: number;
      let n = 0;
      do {
        if (at >= data.length || ++n > 5) return undefined;
        byte = data[at++]!;
        strip = n === 1 ? byte & 127 : ((strip + 1) << 7) | (byte & 127);
      } while (byte & 128);
      if (strip > previous.length) return undefined;
    }
    const end = data.indexOf(0, at);
    if (end < 0) return undefined;
    const path =
      version === 4
        ? Buffer.concat([previous.subarray(0, previous.length - strip), data.subarray(at, end)])
        : data.subarray(at, end);
    // The name's length is in the flags (0xfff: that long or longer): a check that the object
    // name's size was guessed right.
    const nameLength = flags & 0xfff;
    if (nameLength < 0xfff ? path.length !== nameLength : path.length < 0xfff) return undefined;
    // Versions 2 and 3 pad the entry with 1 to 8 NULs to a multiple of 8 bytes.
    at = version === 4 ? end + 1 : start + ((end - start + 8) & ~7);
    if (at > data.length) return undefined;
    paths.add(path.toString('utf8'));
    previous = path;
  }
  return paths;
}

/** Whether git tracks a file (absolute path); `under` lists the tracked files in a folder. */
export interface TrackedFiles {
  (path: string): boolean;
  /**
   * The files git's index lists under `dir` (absolute), or undefined when the index cannot be
   * read for sure; outside a repository, none.
   */
  under(dir: string): string[] | undefined;
}

/**
 * Whether git tracks a file (absolute path): its repository's index lists it. Outside a
 * repository, or in one with no index yet, it is not tracked. Where the index cannot be read
 * for sure (too large, another format, a sparse index, not a regular file), every file counts
 * as tracked: `git grep` is then taken to read it. The parsed index is kept while the file's
 * inode, size and time of change stay the same (git replaces it with a new file on every
 * write).
 */
export function createTrackedFiles(): TrackedFiles {
  let last: { file: string; stamp: string; paths: Set<string> | undefined } | undefined;
  /** The repository's top and its index's paths; `paths` undefined: not read for sure. */
  const indexOf = (
    dir: string,
  ): { top: string; paths: ReadonlySet<string> | undefined } | undefined => {
    const top = repositoryTop(dir);
    if (top === undefined) return undefined;
    const own = ownGitDir(top);
    if (own === undefined) return { top, paths: undefined };
    const file = join(own, 'index');
    let stamp: string;
    try {
      const s = statSync(file, { bigint: true });
      stamp = `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
    } catch {
      return { top, paths: new Set() };
    }
    if (last?.file !== file || last.stamp !== stamp) {
      const data = readSmallBytes(file, MAX_INDEX_BYTES);
      last = { file, stamp, paths: data && indexPaths(data) };
    }
    return { top, paths: last.paths };
  };
  const tracked = (path: string): boolean => {
    const index = indexOf(resolve(path, '..'));
    if (index === undefined) return false;
    if (!index.paths) return true;
    return index.paths.has(relative(index.top, path).split(sep).join('/'));
  };
  tracked.under = (dir: string): string[] | undefined => {
    const index = indexOf(dir);
    if (index === undefined) return [];
    if (!index.paths) return undefined;
    const at = relative(index.top, resolve(dir)).split(sep).join('/');
    const out: string[] = [];
    for (const p of index.paths)
      if (at === '' || p.startsWith(`${at}/`)) out.push(join(index.top, p));
    return out;
  };
  return tracked;
}
