import { lstatSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { foldersUp } from './git-hooks-path';

/**
 * The bare repository git would find by itself from `dir`, or undefined: walking up as git's
 * discovery does, the first folder that holds a `.git` is a working tree (not bare), and the
 * first that is itself a git folder (a `HEAD` file, `objects` and `refs` folders; a `.git`
 * folder excepted, the person's repository) is a bare one. Anyone who can write plain files
 * can make one (`HEAD`, `refs/`, `objects/info/alternates` lending another repository's
 * objects), and its `config` and `info/attributes` run programs at the next `git log -p` (a
 * diff textconv) without a write to any `.git`. git's own `safe.bareRepository=explicit`
 * refuses such a repository for this reason. Looked at on every call (a few stats a folder up):
 * an answer kept a second let `git log -p` in a plain folder, the line that makes it a bare
 * repository, and `git log -p` there again follow each other within it.
 */
export function createBareRepositoryFinder(): (dir: string) => string | undefined {
  return (dir) => bareAbove(resolve(dir));
}

function bareAbove(dir: string): string | undefined {
  for (const d of foldersUp(dir)) {
    if (kind(join(d, '.git'))) return undefined;
    if (
      basename(d) !== '.git' &&
      headFile(join(d, 'HEAD')) &&
      kind(join(d, 'objects')) === 'dir' &&
      kind(join(d, 'refs')) === 'dir'
    )
      return d;
  }
  return undefined;
}

/** A `HEAD` git may take: a file, or a symbolic link (git reads where it points, `refs/…`). */
function headFile(path: string): boolean {
  try {
    const s = lstatSync(path, { throwIfNoEntry: false });
    return !!s && (s.isFile() || s.isSymbolicLink());
  } catch {
    return false;
  }
}

function kind(path: string): 'file' | 'dir' | 'other' | undefined {
  try {
    const s = statSync(path, { throwIfNoEntry: false });
    return s === undefined ? undefined : s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other';
  } catch {
    return undefined;
  }
}
