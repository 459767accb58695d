import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { RecentCache } from './recent-cache';

/** A path as an agent wrote it, made absolute (structurally the engine's `ResolvedPath`). */
export interface ResolvedPath {
  lexical: string;
  real: string;
  glob: boolean;
}

export interface PathResolverOptions {
  /** The user's home directory (`~`, `$HOME`). */
  home: string;
  /** Gatehouse's data directory (`$GATEHOUSE_HOME`). */
  gatehouseHome: string;
}

/** At most this many expansions of one word (each variable may have several values). */
const MAX_VARIANTS = 16;
const EXPANSION = /\$\{([A-Za-z_]\w*)[^}]*\}|\$([A-Za-z_]\w*)|\$\([^)]*\)?|`[^`]*`?/;
const GLOB = /[*?[]|\{[^}]*,[^}]*\}/;

const slashes = (p: string): string => p.replace(/\\/g, '/');

/**
 * The Node side of the engine's path-resolver port (main/engine/policy/path-port.ts). Never
 * throws: a path it cannot resolve further is returned as far as it got.
 */
export function createPathResolver(o: PathResolverOptions) {
  /**
   * Real paths of the last second. An agent classifies the same few paths over and over (a
   * hook per tool call), and each walk is several system calls. A second is too short to
   * matter: to turn a path into a link to Gatehouse's files within it, the agent would need a
   * command that names those files, and that command asks a person itself.
   */
  const realPaths = new RecentCache<string>(1000);
  const known = (name: string): string[] | undefined =>
    name === 'HOME' ? [o.home] : name === 'GATEHOUSE_HOME' ? [o.gatehouseHome] : undefined;

  const expand = (
    word: string,
    vars: ReadonlyMap<string, readonly string[]>,
    depth: number,
  ): string[] => {
    let w = word;
    if (w === '~' || w.startsWith('~/')) w = o.home + w.slice(1);
    const m = EXPANSION.exec(w);
    if (!m) return [w];
    const name = m[1] ?? m[2];
    // An expansion Gatehouse cannot know stands for anything: a glob segment.
    const values =
      depth < 3 && name !== undefined ? (known(name) ?? vars.get(name) ?? ['*']) : ['*'];
    const out: string[] = [];
    for (const v of values) {
      const replaced = w.slice(0, m.index) + v + w.slice(m.index + m[0].length);
      for (const e of expand(replaced, vars, depth + 1)) {
        if (out.length >= MAX_VARIANTS) return out;
        out.push(e);
      }
    }
    return out;
  };

  /**
   * The real path of the longest existing prefix, with the rest appended. The prefix is found
   * with `lstat` that returns nothing for a missing entry instead of throwing: agents name
   * paths that do not exist yet all the time, and a thrown ENOENT per segment cost more than
   * the rest of a classification.
   */
  const realOf = (abs: string): string => realPaths.get(abs, () => walkToReal(abs));
  const walkToReal = (abs: string): string => {
    const rest: string[] = [];
    let p = abs;
    while (!lstatSync(p, { throwIfNoEntry: false })) {
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
  };

  const one = (abs: string): ResolvedPath => {
    const lexical = slashes(resolvePath(abs));
    if (!GLOB.test(lexical)) return { lexical, real: realOf(lexical), glob: false };
    // Only the fixed prefix of a glob can be resolved; its pattern part is kept.
    const segments = lexical.split('/');
    const firstGlob = segments.findIndex((s) => GLOB.test(s));
    const prefix = segments.slice(0, firstGlob).join('/') || '/';
    const tail = segments.slice(firstGlob).join('/');
    return { lexical, real: `${realOf(prefix).replace(/\/$/, '')}/${tail}`, glob: true };
  };

  return {
    resolve(
      word: string,
      opts: { cwds: readonly string[]; vars: ReadonlyMap<string, readonly string[]> },
    ): ResolvedPath[] {
      if (!word || word.length > 4096) return [];
      const out: ResolvedPath[] = [];
      for (const e of expand(word, opts.vars, 0)) {
        if (isAbsolute(e) || e.startsWith('/')) out.push(one(e));
        else for (const cwd of opts.cwds) out.push(one(`${cwd}/${e}`));
      }
      return out;
    },
  };
}
