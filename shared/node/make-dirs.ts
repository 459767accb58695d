import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** A folder Gatehouse needs cannot be made or used; the message says why and what to do. */
export class DataFolderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataFolderError';
  }
}

const octal = (mode: number): string => `0${(mode & 0o777).toString(8).padStart(3, '0')}`;

const you = (): string => {
  const uid = process.getuid?.();
  return uid === undefined ? 'you' : `you (uid ${uid})`;
};

/** What is known of `path` for a message: its owner and mode, or nothing. */
function describe(path: string): string {
  try {
    const st = statSync(path);
    return ` (owner uid ${st.uid}, mode ${octal(st.mode)})`;
  } catch {
    return '';
  }
}

/** Why `mkdir` of `dir` failed with `code`, in words, with what to do. */
function whyNotMade(dir: string, what: string, code: string | undefined): string {
  const parent = dirname(dir);
  const elsewhere = `point ${what} at a folder you own on a writable disk`;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return `cannot create ${dir}: ${you()} may not create folders in ${parent}${describe(parent)}. Create it yourself with mode 0700, or ${elsewhere}.`;
    case 'EROFS':
      return `cannot create ${dir}: ${parent} is on a read-only file system; ${elsewhere}.`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `cannot create ${dir}: the disk holding ${parent} is full; free some space or ${elsewhere}.`;
    case 'ENOENT':
      // /proc, /sys and the like: the parent exists but its file system makes no folders.
      return `cannot create ${dir}: the file system of ${parent} does not hold new folders (a virtual file system such as /proc?); ${elsewhere}.`;
    default:
      return `cannot create ${dir} (${code ?? 'unknown error'}); ${elsewhere}.`;
  }
}

/**
 * `mkdir -p`, one level at a time, with a message that says what is wrong. Node's own
 * `mkdirSync(…, { recursive: true })` never returns on a path under /proc (the kernel
 * answers ENOENT for the parent it just found, and Node retries forever in native code, where
 * not even SIGTERM is handled); here each level is made once, and a failure names the folder,
 * why, and what to do. `what` names the setting that chose the path (e.g. `GATEHOUSE_HOME`).
 */
export function makeDirs(path: string, mode: number, what: string): void {
  const target = resolve(path);
  const missing: string[] = [];
  // Up from the target to the first folder that exists; the ones below it are made in order.
  for (let dir = target; ; dir = dirname(dir)) {
    let st;
    try {
      st = statSync(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        throw new DataFolderError(`cannot use ${dir} (${code}); point ${what} elsewhere.`);
      missing.unshift(dir);
      if (dirname(dir) === dir) break;
      continue;
    }
    if (!st.isDirectory())
      throw new DataFolderError(
        `cannot use ${target}: ${dir} is not a folder${describe(dir)}; point ${what} at a folder.`,
      );
    break;
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir, { mode });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && isDirectory(dir)) continue;
      if (code === 'EEXIST' || code === 'ENOTDIR')
        throw new DataFolderError(
          `cannot use ${target}: ${code === 'EEXIST' ? dir : dirname(dir)} is not a folder; point ${what} at a folder.`,
        );
      throw new DataFolderError(whyNotMade(dir, what, code));
    }
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
