/**
 * The agent's PATH as a list of folders: a program written into one of them runs in place of
 * one of the same name later on (an `ls` or `git` Gatehouse allows), so writes there are
 * protected (main/engine/policy/protected-paths.ts). Pure: the hook relay clips the PATH it
 * reports, the daemon reads the folders from it.
 */
import { IN_DEVICES } from './config-homes';

/** Longest PATH a gate call carries (`shellPath`): a longer one is cut at a folder's end. */
export const MAX_SHELL_PATH = 16 * 1024;
/** At most this many folders are judged; a PATH rarely holds more than thirty. */
const MAX_FOLDERS = 256;

/**
 * The absolute folders of a PATH, without trailing slashes, each once, in order. Relative
 * entries (`.`, an empty one, `bin`) move with the shell's working directory and are left
 * out, as are `/` itself (every write is under it) and /dev and /proc.
 */
export function shellPathFolders(shellPath: string): string[] {
  const folders = new Set<string>();
  for (const entry of shellPath.split(':')) {
    if (!entry.startsWith('/')) continue;
    const dir = entry.replace(/\/+/g, '/').replace(/\/$/, '');
    if (!dir || IN_DEVICES.test(dir)) continue;
    folders.add(dir);
    if (folders.size >= MAX_FOLDERS) break;
  }
  return [...folders];
}

/**
 * The PATH's relative entries, each once, in order: `.` for an empty one (the shell reads
 * `::`, a leading or a trailing `:` as the working directory), `node_modules/.bin` as written.
 * Each is a folder of programs wherever a command runs: under the working directory.
 */
export function shellPathRelativeEntries(shellPath: string): string[] {
  const entries = new Set<string>();
  for (const entry of shellPath.split(':')) {
    // bash expands a leading `~` of a PATH entry itself: the home's folder, not a relative one.
    if (entry.startsWith('/') || entry.startsWith('~')) continue;
    entries.add(relativeEntryName(entry));
    if (entries.size >= MAX_FOLDERS) break;
  }
  return [...entries];
}

/** A relative entry as {@link shellPathRelativeEntries} names it: `.` for an empty one. */
const relativeEntryName = (entry: string): string => entry.replace(/\/+$/, '') || '.';

/** The folder a relative PATH entry names for a command run in `cwd`. */
export function relativeEntryUnder(cwd: string, entry: string): string {
  const name = relativeEntryName(entry);
  if (name === '.') return cwd;
  return `${cwd === '/' ? '' : cwd}/${name}`;
}

/** The PATH as a gate call carries it: whole folders, at most {@link MAX_SHELL_PATH} long. */
export function clipShellPath(shellPath: string): string {
  if (shellPath.length <= MAX_SHELL_PATH) return shellPath;
  const cut = shellPath.lastIndexOf(':', MAX_SHELL_PATH);
  return cut > 0 ? shellPath.slice(0, cut) : '';
}
