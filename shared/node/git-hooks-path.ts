import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { RecentCache } from './recent-cache';

/**
 * The `core.hooksPath` folders git runs hooks from for the repositories holding `dirs` (the
 * repository's own config and the user's global ones). An agent that writes there runs code
 * at the next commit, like `.git/hooks`; so those folders are protected too. Read, not run:
 * `git config` would itself read config an agent may have written.
 */
export function createGitHooksPaths(home: string, env: NodeJS.ProcessEnv = process.env) {
  const cache = new RecentCache<string[]>(1000, 256);
  const globals = [
    join(home, '.gitconfig'),
    join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'git', 'config'),
  ];
  const forDir = (dir: string): string[] =>
    cache.get(dir, () => {
      const top = repositoryTop(dir);
      const out: string[] = [];
      const files = top ? [join(top, '.git', 'config'), ...globals] : globals;
      for (const file of files) {
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
function repositoryTop(dir: string): string | undefined {
  let d = resolve(dir);
  for (let i = 0; i < 64; i++) {
    try {
      if (statSync(join(d, '.git'), { throwIfNoEntry: false })) return d;
    } catch {
      // ENOTDIR and the like: not a folder, go up
    }
    const up = dirname(d);
    if (up === d) return undefined;
    d = up;
  }
  return undefined;
}

/** `hooksPath` of the `[core]` section of a git config file, if set. */
export function hooksPathIn(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
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
