import { lstatSync, type Stats } from 'node:fs';
import { makeDirs } from './make-dirs';
import { dirname } from 'node:path';

/**
 * The socket directory is Gatehouse's and nobody else's (docs/protocol.md "Transport"). Whoever can
 * write to it can replace the socket with their own and receive the admin token the CLI sends
 * or answer an agent's `request` with a forged `approved`. So the daemon and every client
 * check it before use, and refuse rather than repair what someone else may have prepared.
 */
export class SocketDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SocketDirError';
  }
}

/** A Windows named pipe has no directory to check. */
export const isNamedPipe = (socketPath: string): boolean => socketPath.startsWith('\\\\');

const currentUid = (): number | undefined => process.getuid?.();

const octal = (mode: number): string => `0${(mode & 0o777).toString(8).padStart(3, '0')}`;

const lstatOrUndefined = (path: string): Stats | undefined => {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};

/** Why `st`, the directory `dir`, may not hold the socket; undefined when it may. */
function dirProblem(dir: string, st: Stats): string | undefined {
  const uid = currentUid();
  const fix = `Remove it or point GATEHOUSE_SOCKET (or XDG_RUNTIME_DIR / GATEHOUSE_HOME) at a directory of your own with mode 0700`;
  if (st.isSymbolicLink())
    return `the socket directory ${dir} is a symbolic link (owner uid ${st.uid}); someone could redirect it. ${fix}.`;
  if (!st.isDirectory())
    return `the socket directory ${dir} is not a directory (owner uid ${st.uid}, mode ${octal(st.mode)}). ${fix}.`;
  if (uid !== undefined && st.uid !== uid)
    return `the socket directory ${dir} belongs to uid ${st.uid}, not to you (uid ${uid}), mode ${octal(st.mode)}; its owner could replace the socket. ${fix}.`;
  if ((st.mode & 0o077) !== 0)
    return `the socket directory ${dir} has mode ${octal(st.mode)} (owner uid ${st.uid}); other users could replace the socket. Run \`chmod 700 ${dir}\` if it is yours and holds nothing you did not put there, or ${fix.charAt(0).toLowerCase()}${fix.slice(1)}.`;
  return undefined;
}

/**
 * Checks the directory of `socketPath`: it must exist, be a real directory (not a symlink,
 * by `lstat`), belong to the current user and have no group or other permission bits.
 * Throws {@link SocketDirError} naming the directory, its owner and mode, and what to do.
 */
export function checkSocketDir(socketPath: string): void {
  if (isNamedPipe(socketPath)) return;
  const dir = dirname(socketPath);
  const st = lstatOrUndefined(dir);
  if (!st) return; // Nothing listens there: connecting fails with "not running".
  const problem = dirProblem(dir, st);
  if (problem) throw new SocketDirError(`gatehouse: refusing to use the socket: ${problem}`);
}

/**
 * Checks the socket file itself, when it exists: it must be a socket (not a symlink or a
 * regular file) owned by the current user.
 */
export function checkSocketFile(socketPath: string): void {
  if (isNamedPipe(socketPath)) return;
  const st = lstatOrUndefined(socketPath);
  if (!st) return;
  const uid = currentUid();
  if (!st.isSocket())
    throw new SocketDirError(
      `gatehouse: refusing to use ${socketPath}: it is not a socket (owner uid ${st.uid}, mode ${octal(st.mode)}). Remove it and restart Gatehouse.`,
    );
  if (uid !== undefined && st.uid !== uid)
    throw new SocketDirError(
      `gatehouse: refusing to use ${socketPath}: the socket belongs to uid ${st.uid}, not to you (uid ${uid}). Someone else may be listening there; remove it and restart Gatehouse.`,
    );
}

/** What a client checks before it connects: the directory, then the socket file. */
export function checkSocketBeforeConnect(socketPath: string): void {
  checkSocketDir(socketPath);
  checkSocketFile(socketPath);
}

/**
 * What the daemon does before it listens: creates the directory (and missing parents) with
 * mode 0700 when it is missing; otherwise checks it and refuses, never fixing a directory
 * someone else may have prepared.
 */
export function ensureSocketDir(socketPath: string): void {
  if (isNamedPipe(socketPath)) return;
  const dir = dirname(socketPath);
  if (!lstatOrUndefined(dir)) makeDirs(dir, 0o700, 'GATEHOUSE_SOCKET');
  const st = lstatSync(dir);
  const problem = dirProblem(dir, st);
  if (problem) throw new SocketDirError(`gatehouse: refusing to start: ${problem}`);
}
