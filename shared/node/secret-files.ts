import { realpathSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { SecretFound, SecretWalk } from '../tools/commands/secret-walk';
import { globRegExp } from '../tools/glob-pattern';
import { entriesOf } from './folder-entries';
import { FolderStamps } from './folder-stamps';
import {
  rememberedIgnoreReads,
  surelyIgnored,
  type IgnoreReads,
  type RememberedIgnoreReads,
} from './gitignore-check';
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
 * A walk through more folders than this is not kept: what it saw of each folder is what tells
 * a kept answer still holds, and an agent can make the list long.
 */
const MAX_KEPT_FOLDERS = 16_384;

/** Walks kept at once (each of up to {@link MAX_KEPT_FOLDERS} folders' stamps). */
const MAX_KEPT_WALKS = 16;

/**
 * The first file under `dir` (breadth first: the project's own `.env` before anything deep)
 * whose name `isSecret` says is a secret and that a search walking `dir` as `walk` says reads;
 * undefined when there is none or `dir` is not a folder. Past {@link MAX_ENTRIES} names
 * without one (breadth first: a secret at the top of a large tree is still found), `unwalked`:
 * what is beyond is not known, and an agent that can write files can make that many to hide a
 * deeper one; a search that honours .gitignore is walked again without the folders it names.
 *
 * A walk is kept a second (the gate asks for each candidate action of one command, and an
 * agent's searches come in runs) while every folder it read is as it was: a kept answer
 * from before `mv target other` (a folder .gitignore names, holding a key, renamed to one it
 * does not) would let the next `rg` print the key. Whether .gitignore keeps one out, and
 * whether git tracks it (`isTracked`), are read again on every call.
 */
export function createSecretFileFinder(
  isSecret: (name: string, path: string) => boolean,
  repositoryCredential?: (dir: string) => string | undefined,
  isTracked: ((path: string) => boolean) & Partial<Pick<TrackedFiles, 'under'>> = () => true,
): (dir: string, walk: SecretWalk) => SecretFound | undefined {
  const cache = new RecentCache<TreeWalked>(1000, MAX_KEPT_WALKS);
  const withoutIgnored = new RecentCache<{ walked: TreeWalked; reads: RememberedIgnoreReads }>(
    1000,
    MAX_KEPT_WALKS,
  );
  /**
   * A walk that ran past its names: plain `git grep` reads what git's index lists, and the
   * index says which files those are (read on every call: the next command may change it); a
   * search that honours .gitignore reads no folder it names (`target/`, `dist/`, a `.venv`),
   * and the walk is made again without them, kept as the first is and while every ignore file
   * it read reads the same (a .gitignore rewritten within the second is walked again; keeping
   * it spares the daemon a second walk of a large tree on every search). Undefined: neither.
   */
  const pastTheNames = (key: string, dir: string, walk: SecretWalk): Walked | undefined => {
    if (walk.tracked) return trackedSecrets(dir, walk, isSecret, isTracked.under);
    if (!walk.ignores) return undefined;
    return withoutIgnored.get(
      key,
      () => {
        const reads = rememberedIgnoreReads();
        return { walked: secretsUnder(dir, walk, isSecret, repositoryCredential, reads), reads };
      },
      (kept) => kept.reads.unchanged() && kept.walked.seen.unchanged(),
    ).walked;
  };
  return (dir, walk) => {
    const key = `${walk.hidden ? 'h' : '-'}${walk.ignores ? 'i' : '-'}${walk.caseless ? 'c' : '-'}${walk.tracked ? 't' : '-'}${walk.follow ? 'f' : '-'}${walk.depth ?? ''}\0${walk.only.join('\0')}\0${dir}`;
    const walked = cache.get(
      key,
      () => secretsUnder(dir, walk, isSecret, repositoryCredential),
      (kept) => kept.seen.unchanged(),
    );
    const { found, more, cut } = walked.cut ? (pastTheNames(key, dir, walk) ?? walked) : walked;
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

/** A walk of the tree, with the folders it read as they were (`seen`), to keep it by. */
interface TreeWalked extends Walked {
  seen: FolderStamps;
}

function secretsUnder(
  dir: string,
  walk: SecretWalk,
  isSecret: (name: string, path: string) => boolean,
  repositoryCredential?: (dir: string) => string | undefined,
  skipIgnored?: IgnoreReads,
): TreeWalked {
  const named = onlyNamed(walk);
  const reads = (name: string): boolean => (walk.hidden || !name.startsWith('.')) && named(name);
  // Without .gitignore or git's index to read, the first secret is the answer.
  const first = !walk.ignores && !walk.tracked;
  const found: string[] = [];
  const stamps = new FolderStamps(MAX_KEPT_FOLDERS);
  const result = (more: boolean, cut?: true): TreeWalked => ({
    found,
    more,
    ...(cut && { cut }),
    seen: stamps,
  });
  let seen = 0;
  // Each folder as the search names it, and where it is (through the links a search that
  // follows them went through): a secret is known by where it is (`~/.aws/credentials`).
  let level = [{ folder: dir, real: dir }];
  // Folders a search that follows links has been in, so a link to a folder above ends.
  const entered = new Set<string>([dir]);
  for (let down = 0; level.length; down++) {
    // Whether the search reads the folders in this one (`diff` without `-r` does not).
    const deeper = walk.depth === undefined || down < walk.depth;
    const next: typeof level = [];
    for (const { folder, real } of level) {
      // Stamped before it is read: a change while it is read shows as one.
      stamps.folder(folder);
      const entries = entriesOf(folder);
      for (const e of entries) {
        const path = `${folder === '/' ? '' : folder}/${e.name}`;
        const at = `${real === '/' ? '' : real}/${e.name}`;
        const dot = e.name.startsWith('.');
        if (walk.follow && e.isSymbolicLink()) {
          const target = followed(at);
          stamps.link(at, target?.real ?? '-');
          if (target?.dir) {
            if (
              deeper &&
              !SKIPPED.has(e.name) &&
              (walk.hidden || !dot) &&
              !entered.has(target.real)
            ) {
              entered.add(target.real);
              next.push({ folder: path, real: target.real });
            }
          } else if (
            target &&
            reads(e.name) &&
            (isSecret(e.name, at) || isSecret(basename(target.real), target.real))
          ) {
            found.push(path);
            if (first || found.length >= MAX_FOUND) return result(!first);
          }
          continue;
        }
        // `.git` is not walked, but a search that reads hidden names reads its config, whose
        // remote URL may hold a token (`grep -rn ghp_ .`).
        const config =
          e.name === '.git' && deeper && walk.hidden && reads('config')
            ? repositoryCredential?.(folder)
            : undefined;
        if (config === join(path, 'config')) {
          found.push(config);
          if (first) return result(false);
        }
        if (e.isDirectory()) {
          if (
            deeper &&
            !SKIPPED.has(e.name) &&
            (walk.hidden || !dot) &&
            !(skipIgnored && surelyIgnored(path, dir, { folder: true, reads: skipIgnored }))
          )
            next.push({ folder: path, real: at });
        } else if (reads(e.name) && isSecret(e.name, at)) {
          found.push(path);
          if (first || found.length >= MAX_FOUND) return result(!first);
        }
      }
      seen += entries.length;
      // Past the names it looks at (many files an agent made, a link to `/`), what is beyond
      // them is not known: the search is counted as reading a secret unless one was found.
      if (seen > MAX_ENTRIES) return result(false, true);
    }
    level = next;
  }
  return result(false);
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
  const named = onlyNamed(walk);
  const found = listed.filter((path) => {
    const name = basename(path);
    return named(name) && isSecret(name, path);
  });
  return { found: found.slice(0, MAX_FOUND), more: found.length > MAX_FOUND };
}

/** Whether a search's name filters (`rg -g '*.txt'`, `grep --include`) let it read a file named so. */
function onlyNamed(walk: SecretWalk): (name: string) => boolean {
  const only = walk.only.map((g) => globRegExp(g, { caseInsensitive: walk.caseless === true }));
  return (name) => !only.length || only.some((re) => re.test(name));
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
