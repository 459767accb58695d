import { readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { SecretWalk } from '../tools/commands/secret-walk';
import { globRegExp } from '../tools/glob-pattern';
import { surelyIgnored } from './gitignore-check';
import { RecentCache } from './recent-cache';

/** At most this many names are looked at under one folder; past them the walk stops. */
const MAX_ENTRIES = 20_000;

/**
 * Folders a walk for the person's secrets does not enter: a package tree or the repository's
 * own objects hold none of their `.env` files, and most of a project's names.
 */
const SKIPPED = new Set(['node_modules', '.git']);

/** At most this many secrets are kept of one walk; past them the first counts, kept out or not. */
const MAX_FOUND = 64;

/**
 * The first file under `dir` (breadth first: the project's own `.env` before anything deep)
 * whose name `isSecret` says is a secret and that a search walking `dir` as `walk` says reads;
 * undefined when there is none, `dir` is not a folder, or past {@link MAX_ENTRIES} names (a
 * walk as far as that: a secret at the top of a large tree is still found, as the names of a
 * folder are looked at before any folder under it). The secrets a walk found in the last
 * second are kept (the gate asks for each candidate action of one command); whether
 * .gitignore keeps one out, and whether git tracks it (`isTracked`), are read again on every
 * call, as the next command may change them.
 */
export function createSecretFileFinder(
  isSecret: (name: string, path: string) => boolean,
  repositoryCredential?: (dir: string) => string | undefined,
  isTracked: (path: string) => boolean = () => true,
): (dir: string, walk: SecretWalk) => string | undefined {
  const cache = new RecentCache<{ found: string[]; more: boolean }>(1000, 64);
  return (dir, walk) => {
    const { found, more } = cache.get(
      `${walk.hidden ? 'h' : '-'}${walk.ignores ? 'i' : '-'}${walk.caseless ? 'c' : '-'}${walk.tracked ? 't' : '-'}${walk.follow ? 'f' : '-'}${walk.only.join('\0')}\0${dir}`,
      () => secretsUnder(dir, walk, isSecret, repositoryCredential),
    );
    if (!walk.ignores && !walk.tracked) return found[0];
    // Plain `git grep` reads what git tracks; rg and ag what .gitignore does not keep out.
    // Past the kept ones, the first.
    const reads = (path: string): boolean =>
      walk.tracked ? isTracked(path) : !surelyIgnored(path, dir);
    return found.find(reads) ?? (more ? found[0] : undefined);
  };
}

function secretsUnder(
  dir: string,
  walk: SecretWalk,
  isSecret: (name: string, path: string) => boolean,
  repositoryCredential?: (dir: string) => string | undefined,
): { found: string[]; more: boolean } {
  const only = walk.only.map((g) => globRegExp(g, { caseInsensitive: walk.caseless === true }));
  const reads = (name: string): boolean =>
    (walk.hidden || !name.startsWith('.')) && (!only.length || only.some((re) => re.test(name)));
  // Without .gitignore or git's index to read, the first secret is the answer.
  const first = !walk.ignores && !walk.tracked;
  const found: string[] = [];
  let seen = 0;
  // Each folder as the search names it, and where it is (through the links a search that
  // follows them went through): a secret is known by where it is (`~/.aws/credentials`).
  let level = [{ folder: dir, real: dir }];
  // Folders a search that follows links has been in, so a link to a folder above ends.
  const entered = new Set<string>([dir]);
  let linked: string | undefined;
  while (level.length) {
    const next: typeof level = [];
    for (const { folder, real } of level) {
      let entries;
      try {
        entries = readdirSync(folder, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        const path = `${folder === '/' ? '' : folder}/${e.name}`;
        const at = `${real === '/' ? '' : real}/${e.name}`;
        const dot = e.name.startsWith('.');
        if (walk.follow && e.isSymbolicLink()) {
          const target = followed(at);
          if (target?.dir) {
            if (!SKIPPED.has(e.name) && (walk.hidden || !dot) && !entered.has(target.real)) {
              entered.add(target.real);
              next.push({ folder: path, real: target.real });
              if (!target.real.startsWith(`${dir}/`)) linked ??= path;
            }
          } else if (
            target &&
            reads(e.name) &&
            (isSecret(e.name, at) || isSecret(basename(target.real), target.real))
          ) {
            found.push(path);
            if (first || found.length >= MAX_FOUND) return { found, more: !first };
          }
          continue;
        }
        // `.git` is not walked, but a search that reads hidden names reads its config, whose
        // remote URL may hold a token (`grep -rn ghp_ .`).
        const config =
          e.name === '.git' && walk.hidden && reads('config')
            ? repositoryCredential?.(folder)
            : undefined;
        if (config === join(path, 'config')) {
          found.push(config);
          if (first) return { found, more: false };
        }
        if (e.isDirectory()) {
          if (!SKIPPED.has(e.name) && (walk.hidden || !dot)) next.push({ folder: path, real: at });
        } else if (reads(e.name) && isSecret(e.name, at)) {
          found.push(path);
          if (first || found.length >= MAX_FOUND) return { found, more: !first };
        }
      }
      seen += entries.length;
      // Past the names it looks at, a walk that went through a link to a folder elsewhere
      // (a link to `/` is enough) counts the link as a secret: what is beyond was not seen.
      if (seen > MAX_ENTRIES) {
        if (!found.length && linked) found.push(linked);
        return { found, more: false };
      }
    }
    level = next;
  }
  return { found, more: false };
}

/** Where a symbolic link leads, and whether that is a folder; undefined when nowhere. */
function followed(link: string): { real: string; dir: boolean } | undefined {
  try {
    const real = realpathSync(link);
    const info = statSync(real);
    return info.isDirectory() || info.isFile() ? { real, dir: info.isDirectory() } : undefined;
  } catch {
    return undefined;
  }
}
