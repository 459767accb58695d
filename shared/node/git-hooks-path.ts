import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { configFiles, includedFiles, userConfigFiles } from './git-config-includes';
import { readSmallText } from './read-small-text';
import { RecentCache } from './recent-cache';

/**
 * The `core.hooksPath` folders git runs hooks from for the repositories holding `dirs` (the
 * repository's own config, the user's and the system's, and every file they `[include]` or
 * `[includeIf]`), and those included files themselves. An agent that writes there runs code
 * at the next git command, like `.git/hooks` and `.git/config`; so they are protected too.
 * Read, not run: `git config` would itself read config an agent may have written.
 */
export function createGitHooksPaths(home: string, env: NodeJS.ProcessEnv = process.env) {
  const cache = new RecentCache<string[]>(1000, 256);
  const globals = userConfigFiles(home, env);
  const forDir = (dir: string): string[] =>
    cache.get(dir, () => {
      const top = repositoryTop(dir);
      const read = top ? [...configFiles(top), ...globals] : globals;
      // A file any of them includes is git config too (an agent that writes it sets
      // core.fsmonitor or an alias), and may set core.hooksPath itself.
      const included = includedFiles(read, home);
      const out: string[] = [...included];
      for (const file of [...read, ...included]) {
        const value = hooksPathIn(file);
        if (!value) continue;
        const expanded = value.startsWith('~/') ? join(home, value.slice(2)) : value;
        out.push(isAbsolute(expanded) ? expanded : resolve(top ?? dir, expanded));
      }
      return out;
    });
  return (dirs: readonly string[]): string[] => [...new Set(dirs.flatMap(forDir))];
}

/** The nearest folder at or above `dir` with a `.git` folder or file. */
export function repositoryTop(dir: string): string | undefined {
  for (const d of foldersUp(dir)) {
    try {
      if (statSync(join(d, '.git'), { throwIfNoEntry: false })) return d;
    } catch {
      // ENOTDIR and the like: not a folder, go up
    }
  }
  return undefined;
}

/**
 * `dir` and the folders above it, nearest first, as git's discovery walks them (at most 64:
 * a deeper path is not a repository's in practice, and the walk stays bounded).
 */
export function* foldersUp(dir: string): Generator<string> {
  let d = resolve(dir);
  for (let i = 0; i < 64; i++) {
    yield d;
    const up = dirname(d);
    if (up === d) return;
    d = up;
  }
}

/** `hooksPath` of the `[core]` section of a git config file, if set. */
export function hooksPathIn(file: string): string | undefined {
  const text = readSmallText(file);
  if (text === undefined) return undefined;
  let section = '';
  let found: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(\s+"[^"]*")?\s*\]/.exec(line);
    if (header) {
      section = header[1]!.toLowerCase();
      continue;
    }
    const kv = /^hookspath\s*=\s*(.*)$/i.exec(line);
    if (section === 'core' && kv) found = kv[1]!.replace(/^"(.*)"$/, '$1').trim();
  }
  return found || undefined;
}
