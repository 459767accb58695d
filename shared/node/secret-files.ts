import { readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { SecretFound, SecretWalk } from '../tools/commands/secret-walk';
import { globRegExp } from '../tools/glob-pattern';
import { rememberedIgnoreReads, surelyIgnored, type IgnoreReads } from './gitignore-check';
import type { TrackedFiles } from './git-index';
import { RecentCache } from './recent-cache';

/**
 * At most this many names are looked at under one folder; past them the walk stops (about
 * 40 ms on this machine's disk cache).
 */
const MAX_ENTRIES = 50_000;

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
 * undefined when there is none or `dir` is not a folder. Past {@link MAX_ENTRIES} names
 * without one (breadth first: a secret at the top of a large tree is still found), `unwalked`:
 * what is beyond is not known, and an agent that can write files can make that many to hide a
 * deeper one; a search that honours .gitignore is walked again without the folders it names. The secrets a walk found in the last
 * second are kept (the gate asks for each candidate action of one command); whether
 * .gitignore keeps one out, and whether git tracks it (`isTracked`), are read again on every
 * call, as the next command may change them.
 */
export function createSecretFileFinder(
  isSecret: (name: string, path: string) => boolean,
  repositoryCredential?: (dir: string) => string | undefined,
  isTracked: ((path: string) => boolean) & Partial<Pick<TrackedFiles, 'under'>> = () => true,
): (dir: string, walk: SecretWalk) => SecretFound | undefined {
  const cache = new RecentCache<Walked>(1000, 64);
  /**
   * A walk that ran past its names, made on every call (git's index and .gitignore may have
   * changed since): plain `git grep` reads what git's index lists, and the index says which
   * files those are; a search that honours .gitignore reads no folder it names (`target/`,
   * `dist/`, a `.venv`), and the walk is made again without them. Undefined: neither.
   */
  const pastTheNames = (dir: string, walk: SecretWalk): Walked | undefined =>
    walk.tracked
      ? trackedSecrets(dir, walk, isSecret, isTracked.under)
      : walk.ignores
        ? secretsUnder(dir, walk, isSecret, repositoryCredential, rememberedIgnoreReads())
        : undefined;
  return (dir, walk) => {
    const walked = cache.get(
      `${walk.hidden ? 'h' : '-'}${walk.ignores ? 'i' : '-'}${walk.caseless ? 'c' : '-'}${walk.tracked ? 't' : '-'}${walk.follow ? 'f' : '-'}${walk.only.join('\0')}\0${dir}`,
      () => secretsUnder(dir, walk, isSecret, repositoryCredential),
    );
    const { found, more, cut } = walked.cut ? (pastTheNames(dir, walk) ?? walked) : walked;
    // Past the names looked at, what is beyond them is not known.
    const unwalked = cut ? { unwalked: dir, names: MAX_ENTRIES } : undefined;
    if (!walk.ignores && !walk.tracked) return found[0] ?? unwalked;
    // Plain `git grep` reads what git tracks; rg and ag what .gitignore does not keep out.
    // Past the kept ones, the first.
    const reads = (path: string): boolean =>
      walk.tracked ? isTracked(path) : !surelyIgnored(path, dir);
    return found.find(reads) ?? (more ? found[0] : unwalked);
  };
}

/** The secrets a walk found; `more` when it stopped at MAX_FOUND, `cut` at MAX_ENTRIES. */
interface Walked {
  found: string[];
  more: boolean;
  cut?: boolean;
}

function secretsUnder(
  dir: string,
  walk: SecretWalk,
  isSecret: (name: string, path: string) => boolean,
  repositoryCredential?: (dir: string) => string | undefined,
  skipIgnored?: IgnoreReads,
): Walked {
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
          if (
            !SKIPPED.has(e.name) &&
            (walk.hidden || !dot) &&
            !(skipIgnored && surelyIgnored(path, dir, { folder: true, reads: skipIgnored }))
          )
            next.push({ folder: path, real: at });
        } else if (reads(e.name) && isSecret(e.name, at)) {
          found.push(path);
          if (first || found.length >= MAX_FOUND) return { found, more: !first };
        }
      }
      seen += entries.length;
      // Past the names it looks at (many files an agent made, a link to `/`), what is beyond
      // them is not known: the search is counted as reading a secret unless one was found.
      if (seen > MAX_ENTRIES) return { found, more: false, cut: true };
    }
    level = next;
  }
  return { found, more: false };
}

/**
 * The secrets by name among the files git's index lists under `dir`, as a walk's answer;
 * undefined when the index cannot be read for sure.
 */
function trackedSecrets(
  dir: string,
  walk: SecretWalk,
  isSecret: (name: string, path: string) => boolean,
  under: TrackedFiles['under'] | undefined,
): Walked | undefined {
  const listed = under?.(dir);
  if (listed === undefined) return undefined;
  const only = walk.only.map((g) => globRegExp(g, { caseInsensitive: walk.caseless === true }));
  const found = listed.filter((path) => {
    const name = basename(path);
    return (!only.length || only.some((re) => re.test(name))) && isSecret(name, path);
  });
  return { found: found.slice(0, MAX_FOUND), more: found.length > MAX_FOUND };
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
