import {
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import {
  expandWord,
  type PathResolver,
  type Resolution,
  type ResolvedPath,
  type ResolveOptions,
  type TreeListing,
} from '../tools/shell-paths';
import { entriesOf } from './folder-entries';
import { RecentCache } from './recent-cache';
import { expandBraces } from '../tools/brace-expansion';
import { GLOB_CHARS, globRegExp } from '../tools/glob-pattern';

export type { ResolvedPath } from '../tools/shell-paths';

export interface PathResolverOptions {
  /** The user's home directory (`~`, `$HOME`). */
  home: string;
  /** Gatehouse's data directory (`$GATEHOUSE_HOME`). */
  gatehouseHome: string;
  /** Home directories by user name (`~user`); by default read from /etc/passwd. */
  userHome?: (name: string) => string | undefined;
}

/** At most this many paths from one word's braces or glob. */
const MAX_PATHS = 64;
/** Symlinks followed in one path before giving up, like the kernel's ELOOP (40). */
const MAX_LINKS = 40;

const slashes = (p: string): string => p.replace(/\\/g, '/');
/** `/proc/<pid>/cwd`, `/proc/self`: links that name the reader's own process, never followed. */
const inProc = (p: string): boolean => p === '/proc' || p.startsWith('/proc/');

/**
 * What `p` is, or undefined when it cannot be opened, for any reason: missing, a file taken
 * for a folder (`a.ts/x`: ENOTDIR), a folder this user may not search (EACCES), a link loop.
 * `throwIfNoEntry` spares only a missing one, and a path the agent wrote as a typo must not
 * end its call in an internal error (the hook's fallback instead of the daemon's answer).
 */
function lstatOf(p: string): Stats | undefined {
  try {
    return lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** As {@link lstatOf}, through links. */
function statOf(p: string): Stats | undefined {
  try {
    return statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * The Node side of the path-resolver port (shared/tools/shell-paths.ts): expands a word as
 * the shell would, then resolves each path as the kernel opens it. Never throws.
 */
export function createPathResolver(o: PathResolverOptions): PathResolver {
  /**
   * Real paths of the last second. An agent classifies the same few paths over and over (a
   * hook per tool call), and each walk is several system calls. A second is too short to
   * matter: to turn a path into a link to Gatehouse's files within it, the agent would need a
   * command that names those files, and that command asks a person itself.
   */
  const realPaths = new RecentCache<string>(1000);
  /** Glob matches of the last second, for the same reason. */
  const globs = new RecentCache<string[]>(1000, 256);
  const known = new Map([
    ['HOME', o.home],
    ['GATEHOUSE_HOME', o.gatehouseHome],
  ]);
  const userHome = o.userHome ?? passwdHome;

  /** The real path of the longest existing prefix, with the missing rest appended. */
  const realOf = (abs: string): string => realPaths.get(abs, () => walkToReal(abs));

  /**
   * The path the kernel opens: each existing symlink is replaced by its target as it is met,
   * and a `..` after it goes to the target's parent (`a/link/..` is not `a`).
   */
  const kernelPath = (abs: string, links = { n: 0 }): string => {
    const parts = abs.split('/').filter((p) => p && p !== '.');
    let cur = '/';
    for (const seg of parts) {
      if (seg === '..') {
        cur = cur.slice(0, cur.lastIndexOf('/')) || '/';
        continue;
      }
      const next = cur === '/' ? `/${seg}` : `${cur}/${seg}`;
      const st = inProc(next) ? undefined : lstatOf(next);
      if (!st?.isSymbolicLink() || ++links.n > MAX_LINKS) {
        cur = next;
        continue;
      }
      let target: string;
      try {
        target = slashes(readlinkSync(next));
      } catch {
        cur = next;
        continue;
      }
      cur = kernelPath(target.startsWith('/') ? target : `${cur}/${target}`, links);
    }
    return cur;
  };

  /**
   * Paths resolved in the last second, by the absolute path asked: the kernel's path walks
   * the same links as the real path does, and it is kept as long for the same reason.
   * Shared answers: no reader changes them.
   */
  const resolved = new RecentCache<ResolvedPath>(1000);
  const one = (abs: string): ResolvedPath => resolved.get(abs, () => resolveOne(abs));

  const resolveOne = (abs: string): ResolvedPath => {
    const lexical = slashes(resolvePath(abs));
    if (!GLOB_CHARS.test(lexical)) {
      // Without `..` the kernel's path is the real path of what exists, plus the rest.
      const dotdot = /(^|[\\/])\.\.([\\/]|$)/.test(abs);
      const real = inProc(lexical) ? lexical : dotdot ? kernelPath(slashes(abs)) : realOf(lexical);
      return { lexical, real, glob: false };
    }
    // Only the fixed prefix of a glob can be resolved; its pattern part is kept.
    const segments = lexical.split('/');
    const firstGlob = segments.findIndex((s) => GLOB_CHARS.test(s));
    const prefix = segments.slice(0, firstGlob).join('/') || '/';
    const tail = segments.slice(firstGlob).join('/');
    return { lexical, real: `${realOf(prefix).replace(/\/$/, '')}/${tail}`, glob: true };
  };

  /** Folder listings of the last second, for the same reason as the real paths. */
  const trees = new RecentCache<TreeListing | undefined>(1000, 64);

  return {
    isDirectory(path: string): boolean {
      return !inProc(path) && !!statOf(path)?.isDirectory();
    },
    listTree(dir: string, follow: boolean): TreeListing | undefined {
      return trees.get(`${follow ? 'L' : 'P'}${dir}`, () => listTree(dir, follow));
    },
    resolve(word: string, opts: ResolveOptions): Resolution {
      if (!word) return { paths: [] };
      if (word.length > 4096)
        return { paths: [], unresolved: 'a path longer than 4096 characters cannot be checked' };
      const values: string[] = [];
      for (const w of braceWords(word)) {
        if (w === undefined)
          return { paths: [], unresolved: `${word.slice(0, 60)} names too many paths to check` };
        // Most words are plain: no expansion.
        const plain = !w.includes('$') && !w.includes('`') && !w.startsWith('~');
        const e = plain
          ? { values: [w] }
          : expandWord(w, { ...opts, home: o.home, known, userHome });
        if (e.unresolved !== undefined) return { paths: [], unresolved: e.unresolved };
        values.push(...e.values);
      }
      const paths: ResolvedPath[] = [];
      for (const v of values) {
        const absolute = isAbsolute(v) || v.startsWith('/');
        for (const abs of absolute ? [v] : opts.cwds.map((cwd) => `${cwd}/${v}`)) {
          const r = one(abs);
          paths.push(r);
          // The shell matches a glob against what exists: each match is a path too.
          const matches = r.glob ? globs.get(r.lexical, () => globMatches(r.lexical)) : [];
          if (matches.length <= MAX_PATHS) for (const m of matches) paths.push(one(m));
          if (paths.length > MAX_PATHS || matches.length > MAX_PATHS)
            return { paths, unresolved: `${word.slice(0, 60)} names too many paths to check` };
        }
      }
      return { paths };
    },
  };
}

/** At most this many names are read from one copied folder; more asks. */
const MAX_TREE_ENTRIES = 10_000;
const MAX_TREE_DEPTH = 64;

/**
 * The names under a folder, relative to it, as a copy reads them (see PathResolver.listTree).
 * A `.git` folder is listed but not entered: its name alone is protected wherever it lands.
 */
function listTree(dir: string, follow: boolean): TreeListing | undefined {
  // A process's files or devices are not folders a copy walks like others (checked apart).
  if (inProc(dir) || dir === '/dev' || dir.startsWith('/dev/')) return undefined;
  if (!statOf(dir)?.isDirectory()) return undefined;
  const entries: string[] = [];
  const links: string[] = [];
  const pending: [rel: string, depth: number][] = [['', 0]];
  while (pending.length) {
    const [rel, depth] = pending.pop()!;
    let names;
    try {
      names = readdirSync(rel ? `${dir}/${rel}` : dir, { withFileTypes: true });
    } catch {
      return { unreadable: `holds ${rel || 'a folder'} that Gatehouse cannot read` };
    }
    for (const d of names) {
      const path = rel ? `${rel}/${d.name}` : d.name;
      entries.push(path);
      if (entries.length > MAX_TREE_ENTRIES)
        return { unreadable: `holds more than ${MAX_TREE_ENTRIES} files and folders` };
      const link = follow && d.isSymbolicLink();
      if (link) links.push(walkToReal(`${dir}/${path}`));
      const folder = d.isDirectory() || (link && !!statOf(`${dir}/${path}`)?.isDirectory());
      if (!folder || d.name === '.git') continue;
      if (depth + 1 > MAX_TREE_DEPTH)
        return { unreadable: `is nested more than ${MAX_TREE_DEPTH} folders deep` };
      pending.push([path, depth + 1]);
    }
  }
  return follow ? { entries, links } : { entries };
}

function walkToReal(abs: string): string {
  const rest: string[] = [];
  let p = abs;
  while (!lstatOf(p)) {
    const cut = p.lastIndexOf('/');
    if (cut <= 0 || rest.length > 64) return abs;
    rest.push(p.slice(cut + 1));
    p = p.slice(0, cut) || '/';
  }
  let real: string;
  try {
    real = slashes(realpathSync.native(p));
  } catch {
    return abs; // a loop or a directory we may not read: as far as it got
  }
  return rest.length ? `${real.replace(/\/$/, '')}/${rest.reverse().join('/')}` : real;
}

/**
 * The words to expand further: bash expands braces first (`{~/.ssh,x}/id_rsa` reads
 * `$HOME/.ssh/id_rsa`). Quoted braces stay as written, and the word here has lost its
 * quotes, so the word as written is checked beside its expansions. Undefined: too many.
 */
function braceWords(word: string): readonly (string | undefined)[] {
  if (!word.includes('{')) return [word];
  const expanded = expandBraces(word, MAX_PATHS);
  if (!expanded) return [undefined];
  return expanded.length === 1 && expanded[0] === word ? [word] : [word, ...expanded];
}

/**
 * The existing paths a glob matches, segment by segment as the shell does (dot files too);
 * more than MAX_PATHS of them when a segment matched more (the walk stopped there).
 */
function globMatches(pattern: string): string[] {
  let found = ['/'];
  for (const seg of pattern.split('/').filter(Boolean)) {
    const next: string[] = [];
    // Compiled once per segment, not per folder it is looked for in.
    const match = GLOB_CHARS.test(seg) ? globRegExp(seg) : undefined;
    for (const dir of found) {
      const join = (name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);
      if (!match) {
        next.push(join(seg));
        continue;
      }
      // Past the limit the walk stops: the caller asks rather than checking only some.
      for (const { name: n } of entriesOf(dir))
        if (match.test(n) && next.push(join(n)) > MAX_PATHS) return next;
    }
    found = next;
    if (!found.length) break;
  }
  return found.filter((p) => lstatOf(p));
}

let passwd: Map<string, string> | undefined;
/** A user's home from /etc/passwd (read once); undefined for an unknown user. */
function passwdHome(name: string): string | undefined {
  if (!passwd) {
    passwd = new Map();
    try {
      for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
        const f = line.split(':');
        if (f.length >= 6 && f[0] && f[5]) passwd.set(f[0], f[5]);
      }
    } catch {
      // No passwd file (Windows): no `~user` is known, so each one asks.
    }
  }
  return passwd.get(name);
}
