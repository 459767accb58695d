import { readdirSync } from 'node:fs';
import type { SecretWalk } from '../tools/commands/search-tools';
import { globRegExp } from '../tools/glob-pattern';
import { RecentCache } from './recent-cache';

/** At most this many names are looked at under one folder; past them the walk stops. */
const MAX_ENTRIES = 20_000;

/**
 * Folders a walk for the person's secrets does not enter: a package tree or the repository's
 * own objects hold none of their `.env` files, and most of a project's names.
 */
const SKIPPED = new Set(['node_modules', '.git']);

/**
 * The first file under `dir` (breadth first: the project's own `.env` before anything deep)
 * whose name `isSecret` says is a secret and that a search walking `dir` as `walk` says reads;
 * undefined when there is none, `dir` is not a folder, or past {@link MAX_ENTRIES} names (a
 * walk as far as that: a secret at the top of a large tree is still found, as the names of a
 * folder are looked at before any folder under it). Answers of the last second are kept: the
 * gate asks for each candidate action of one command.
 */
export function createSecretFileFinder(
  isSecret: (name: string) => boolean,
): (dir: string, walk: SecretWalk) => string | undefined {
  const cache = new RecentCache<string | undefined>(1000, 64);
  return (dir, walk) =>
    cache.get(`${walk.hidden ? 'h' : '-'}${walk.only.join('\0')}\0${dir}`, () =>
      firstSecretUnder(dir, walk, isSecret),
    );
}

function firstSecretUnder(
  dir: string,
  walk: SecretWalk,
  isSecret: (name: string) => boolean,
): string | undefined {
  const only = walk.only.map((g) => globRegExp(g));
  const reads = (name: string): boolean =>
    (walk.hidden || !name.startsWith('.')) && (!only.length || only.some((re) => re.test(name)));
  let seen = 0;
  let level = [dir];
  while (level.length) {
    const next: string[] = [];
    for (const folder of level) {
      let entries;
      try {
        entries = readdirSync(folder, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        const path = `${folder === '/' ? '' : folder}/${e.name}`;
        if (e.isDirectory()) {
          if (!SKIPPED.has(e.name) && (walk.hidden || !e.name.startsWith('.'))) next.push(path);
        } else if (isSecret(e.name) && reads(e.name)) return path;
      }
      seen += entries.length;
      if (seen > MAX_ENTRIES) return undefined;
    }
    level = next;
  }
  return undefined;
}
