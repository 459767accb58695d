import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { expandHomePath } from './home-path';
import { readSmallText } from './read-small-text';

/** How deep includes are followed (git itself stops at 10). */
const MAX_DEPTH = 10;

/**
 * The `path` values of `[include]` and `[includeIf "…"]` sections in a git config file's
 * text, as written. Every `includeIf` counts whatever its condition: the condition may hold
 * for the next command (`gitdir:`, `onbranch:` after a checkout), so the file may apply.
 */
export function includePaths(text: string): string[] {
  const out: string[] = [];
  let inInclude = false;
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    // A section header, possibly followed by a key on the same line (`[include] path = x`).
    const header = /^\[\s*([A-Za-z0-9.-]+)(\s+"(?:[^"\\]|\\.)*")?\s*\]/.exec(line);
    if (header) {
      const name = header[1]!.toLowerCase();
      inInclude = name === 'include' || name === 'includeif';
      line = line.slice(header[0].length).trim();
    }
    if (!inInclude) continue;
    const kv = /^path\s*=\s*(.*)$/i.exec(line);
    if (kv) {
      const value = configValue(kv[1]!);
      if (value) out.push(value);
    }
  }
  return out;
}

/** A config value: quotes joined, escapes taken, a comment outside quotes dropped. */
function configValue(raw: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && i + 1 < raw.length) {
      const n = raw[++i]!;
      out += n === 'n' ? '\n' : n === 't' ? '\t' : n;
    } else if (!quoted && (c === '#' || c === ';')) break;
    else out += c;
  }
  return out.trim();
}

/**
 * The git folder of the repository whose top is `root`: its `.git` folder, or the one a
 * `.git` file names (a linked worktree's or a submodule's own). Undefined when neither.
 */
export function ownGitDir(root: string): string | undefined {
  const dotGit = join(root, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
  } catch {
    return undefined;
  }
  const gitdir = /^gitdir:\s*(.+)$/m.exec(readSmallText(dotGit) ?? '')?.[1]?.trim();
  return gitdir ? resolve(root, gitdir) : undefined;
}

/** The repository's config files: `.git/config`, or a linked worktree's common and own. */
export function configFiles(root: string): string[] {
  const own = ownGitDir(root);
  if (own === undefined) return [];
  if (own === join(root, '.git')) return [join(own, 'config')];
  return [join(commonGitDir(own), 'config'), join(own, 'config.worktree')];
}

/**
 * The folder a linked worktree's git folder shares with the main one (its `commondir`: the
 * config, refs and objects); without one (a submodule's or the main git folder) the folder
 * itself.
 */
export function commonGitDir(own: string): string {
  const commondir = readSmallText(join(own, 'commondir'))?.trim();
  return commondir ? resolve(own, commondir) : own;
}

/**
 * Files a repository's config includes (absolute, as resolved and with symlinks resolved),
 * followed through nested includes: writing one of them changes what git commands run, like
 * writing `.git/config` itself. Relative include paths are taken from the
 * including file's folder, as git does; unreadable files are skipped.
 */
export function gitConfigIncludes(
  root: string,
  home = homedir(),
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  return includedFiles([...configFiles(root), ...userConfigFiles(home, env)], home);
}

/**
 * The config files git reads for every repository: the user's (`~/.gitconfig`,
 * `$XDG_CONFIG_HOME/git/config`) and the system's. What they include applies everywhere.
 */
export function userConfigFiles(home: string, env: NodeJS.ProcessEnv = process.env): string[] {
  return [
    join(home, '.gitconfig'),
    join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'git', 'config'),
    '/etc/gitconfig',
  ];
}

/** The files `files` include, followed through nested includes (see gitConfigIncludes). */
export function includedFiles(files: readonly string[], home: string): string[] {
  const found = new Set<string>();
  const visit = (file: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    const text = readSmallText(file);
    if (text === undefined) return;
    for (const p of includePaths(text)) {
      const expanded = expandHomePath(p, home);
      const target = isAbsolute(expanded) ? resolve(expanded) : resolve(dirname(file), expanded);
      if (found.has(target)) continue;
      found.add(target);
      try {
        found.add(realpathSync.native(target));
      } catch {
        // Not there yet: the agent may create it.
      }
      visit(target, depth + 1);
    }
  };
  for (const f of files) visit(f, 0);
  return [...found];
}
