import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { foldersUp } from './git-hooks-path';
import { expandHomePath } from './home-path';
import { readSmallText } from './read-small-text';
import { RecentCache } from './recent-cache';

/**
 * The program files the package managers' configs name for commands run in these folders,
 * which run at every command of theirs: Yarn Berry's `.yarnrc.yml` `yarnPath` (the release
 * `yarn` runs instead of itself, yarn 1 included) and `plugins` (loaded at every command),
 * its `injectEnvironmentFiles` (whose `NODE_OPTIONS` loads code into every script), yarn 1's
 * `.yarnrc` `yarn-path`, and `.npmrc`'s and `pnpm-workspace.yaml`'s `script-shell` and
 * `pnpmfile` (the shell every script runs in, the hooks pnpm loads). Yarn and npm look for
 * their rc files in the folder they run in and every folder above it, and in the home; so
 * are these read. The configs themselves are protected; the files they name are by this.
 * Read, not asked of the package manager: it would run the very file in question. Each file
 * as named (relative to its config's folder) and as the kernel opens it.
 */
export function createPackageManagerPrograms(home: string) {
  const cache = new RecentCache<string[]>(1000, 256);
  const forDir = (dir: string): string[] =>
    cache.get(dir, () => {
      const out: string[] = [];
      for (const d of foldersUp(dir))
        for (const named of programsNamedIn(d, home)) out.push(...withReal(named));
      return out;
    });
  return (dirs: readonly string[]): string[] => [
    ...new Set([...dirs, home].flatMap((d) => forDir(d))),
  ];
}

/** The files the package-manager configs in folder `dir` name, absolute. */
export function programsNamedIn(dir: string, home: string): string[] {
  const out: string[] = [];
  for (const [file, read] of CONFIGS) {
    const text = readSmallText(join(dir, file));
    if (text === undefined) continue;
    for (const value of read(text)) {
      const path = programPath(value, dir, home);
      if (path) out.push(path);
    }
  }
  return out;
}

type Reader = (text: string) => string[];

/**
 * Keys whose value names a file the package manager loads or runs, in any config it reads.
 * Matched at any indentation and in any section: naming one more file than the manager
 * would only makes its write ask.
 */
const PROGRAM_KEYS =
  'yarnPath|yarn-path|path|script-shell|scriptShell|pnpmfile|global-pnpmfile|globalPnpmfile';
/** `key: value` (YAML), `key=value` (npm's ini), `key value` (yarn 1's `.yarnrc`). */
const KEY_VALUE = new RegExp(
  `^\\s*(?:-\\s+)?(["']?)(?:${PROGRAM_KEYS})\\1\\s*(?::\\s+|:$|=|\\s)\\s*(.*)$`,
);
/** Berry's settings whose items are paths: its plugins and the environment files it loads. */
const PATH_LISTS = /^(["']?)(plugins|injectEnvironmentFiles)\1\s*:\s*(.*)$/;

/** The values of the program keys and the items of the path lists of a config file. */
const readConfig: Reader = (text) => {
  const out: string[] = [];
  let inList = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s#.*$/, '');
    if (!line.trim() || /^\s*#/.test(line)) continue;
    const list = PATH_LISTS.exec(line);
    if (list) {
      // Flow style: `plugins: [a.cjs, {path: b.cjs}]`.
      out.push(...flowItems(list[3]!));
      inList = true;
      continue;
    }
    if (!/^\s/.test(line) && !line.startsWith('-')) inList = false;
    const kv = KEY_VALUE.exec(line);
    if (kv) out.push(kv[2]!);
    else if (inList) {
      const item = /^\s*-\s+(.*)$/.exec(line);
      if (item && !/^[\w"']+\s*:/.test(item[1]!)) out.push(item[1]!);
    }
  }
  return out.map(unquoted).filter((v) => v.length > 0);
};

/** The items of a YAML flow sequence, `path:` values of its mappings included. */
function flowItems(value: string): string[] {
  const v = value.trim();
  if (!v.startsWith('[')) return [];
  return v
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((item) => item.replace(/[{}]/g, '').trim())
    .map((item) => /^(["']?)path\1\s*:\s*(.*)$/.exec(item)?.[2] ?? item)
    .filter((item) => !/^[\w"']+\s*:/.test(item));
}

/** A value without its quotes and Berry's "optional" mark (`.env.yarn?`). */
function unquoted(value: string): string {
  const v = value.trim();
  const bare = /^(["']).*\1$/.test(v) ? v.slice(1, -1) : v;
  return bare.replace(/\?$/, '');
}

/** The rc files read in each folder, Berry's, yarn 1's, npm's and pnpm's. */
const CONFIGS: readonly (readonly [string, Reader])[] = [
  ['.yarnrc.yml', readConfig],
  ['.yarnrc', readConfig],
  ['.npmrc', readConfig],
  ['pnpm-workspace.yaml', readConfig],
];

/**
 * A value as a path, relative to its config's folder; a bare program name (`script-shell=
 * bash`) is looked up on the PATH, not a file here, but naming it costs nothing. A value
 * with a `${VAR}` the daemon cannot read as the package manager would is left out.
 */
function programPath(value: string, dir: string, home: string): string | undefined {
  if (value.includes('${') || value.length > 4096) return undefined;
  const expanded = expandHomePath(value, home);
  return isAbsolute(expanded) ? expanded : resolve(dir, expanded);
}

/** The path and, when it differs, where the kernel opens it (a link on the way followed). */
function withReal(path: string): string[] {
  for (const [at, tail] of [
    [path, ''],
    [dirname(path), `/${basename(path)}`],
  ] as const) {
    try {
      const real = realpathSync.native(at) + tail;
      return real === path ? [path] : [path, real];
    } catch {
      // not there (yet): try its folder
    }
  }
  return [path];
}
