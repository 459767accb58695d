import { realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { bashParserIfLoaded } from '../shared/node/bash-parser';
import { createNpmPrefix } from '../shared/node/npm-prefix';
import { createGitHooksPaths } from '../shared/node/git-hooks-path';
import { createPackageManagerPrograms } from '../shared/node/package-manager-programs';
import { createPathResolver } from '../shared/node/path-resolver';
import { isProgramFile } from '../shared/node/program-file';
import {
  createCredentialFiles,
  createGitUrlCredentials,
  createRepositoryCredentials,
} from '../shared/node/git-url-credentials';
import { createBareRepositoryFinder } from '../shared/node/bare-repository';
import { createTrackedFiles } from '../shared/node/git-index';
import { createSecretFileFinder } from '../shared/node/secret-files';
import { createHistorySecrets } from './history-secrets';
import { secretKind } from './engine/policy/secret-paths';
import { RecentCache } from '../shared/node/recent-cache';
import type { ShellAnalysis, ShellParser } from '../shared/tools/shell-syntax';
import type { PathProtection } from './engine/policy/path-port';

export interface ProtectionOptions {
  /** `GATEHOUSE_HOME`: admin.token, the database, transcripts, shell settings. */
  home: string;
  socketPath: string;
  /**
   * Gatehouse's own program (the built `dist/` folder it runs from), which holds the hook
   * relay every agent's hook command runs before each tool call: an agent that rewrote it
   * would answer its own calls, so it is guarded like the data directory.
   */
  programDir?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

const slashes = (p: string): string => p.replace(/\\/g, '/');

/** A path and, when it differs, its real path (symlinks, /tmp → /private/tmp on macOS). */
function withReal(p: string): string[] {
  const abs = slashes(resolve(p));
  try {
    const real = slashes(realpathSync.native(abs));
    return real === abs ? [abs] : [abs, real];
  } catch {
    return [abs];
  }
}

/**
 * Gatehouse's own files, which no agent may read or change without the person:
 * the data directory, the config directory, the socket's directory when it is Gatehouse's
 * own (otherwise the socket file alone), and the program the hooks run when it is known.
 */
export function protectedRoots(o: ProtectionOptions): string[] {
  const env = o.env ?? process.env;
  const platform = o.platform ?? process.platform;
  const roots = [o.home];
  if (o.programDir) roots.push(o.programDir);
  if (platform !== 'win32')
    roots.push(join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'gatehouse'));
  if (!o.socketPath.startsWith('\\\\.\\pipe\\')) {
    const dir = dirname(o.socketPath);
    const shared = [homedir(), tmpdir(), '/tmp', '/var/tmp', '/', env.XDG_RUNTIME_DIR ?? ''];
    const ownDir =
      !shared.some((s) => s && resolve(s) === resolve(dir)) || basename(dir) === 'gatehouse';
    roots.push(ownDir ? dir : o.socketPath);
  }
  return [...new Set(roots.flatMap(withReal))];
}

/**
 * The folders Node loads the program's packages from (zod, picomatch, web-tree-sitter …):
 * each `node_modules` on the way up from the program's folder, as Node's resolution walks,
 * and the global folders it reads last (`~/.node_modules`, `~/.node_libraries`); and the
 * Node installation the program runs on (`nodePath`'s prefix: `~/.nvm/versions/node/v20.…`,
 * `/usr/local`, the folder installed hook commands name `bin/node` in). The daemon loads them
 * at start and the hook relay on every call or when the daemon is out of reach: one rewritten
 * there runs as Gatehouse. Reading them is harmless, so only writes are guarded.
 */
export function programPackageRoots(
  o: Pick<ProtectionOptions, 'programDir'> & { nodePath?: string },
): string[] {
  if (!o.programDir) return [];
  const roots: string[] = [];
  // Not a system one (`/usr/bin/node`): /usr is the package manager's, not the agent's.
  const nodePrefix = o.nodePath && dirname(dirname(withReal(o.nodePath).at(-1)!));
  if (nodePrefix && nodePrefix !== '/' && nodePrefix !== '/usr') roots.push(nodePrefix);
  for (let dir = resolve(o.programDir); ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') roots.push(join(dir, 'node_modules'));
    if (dirname(dir) === dir) break;
  }
  roots.push(join(homedir(), '.node_modules'), join(homedir(), '.node_libraries'));
  return [...new Set(roots.flatMap(withReal))];
}

/**
 * Analyses of the last second, by command. The gate classifies each candidate action of one
 * command in turn; a parse is the largest part of a classification, and the same analysis
 * lets the path scan be shared too (protected-paths.ts). Never changed by its readers.
 */
const analyses = new RecentCache<ShellAnalysis>(1000, 256);

/** The shell parser once loaded (`listen` awaits it); before that, a call fails closed. */
const loadedShell: ShellParser = {
  analyse(source) {
    const parser = bashParserIfLoaded();
    if (!parser) throw new Error('the shell parser is not loaded yet');
    return analyses.get(source, () => parser.analyse(source));
  },
};

/** The engine's path protection, wired with the Node resolver and the shared shell parser. */
export function pathProtection(o: ProtectionOptions): PathProtection {
  const platform = o.platform ?? process.platform;
  const home = slashes(homedir());
  const caseInsensitive = platform === 'darwin' || platform === 'win32';
  const gatehouseHome = slashes(resolve(o.home));
  // Where a link leads is a real path: Gatehouse's folder is compared as it is and as real.
  const gatehouseFolders = withReal(o.home).map((h) => `${h}/`);
  const repositoryCredential = createRepositoryCredentials();
  const credentialFile = createCredentialFiles();
  const isTracked = createTrackedFiles();
  return {
    protectedRoots: protectedRoots(o),
    programPackageRoots: programPackageRoots({ ...o, nodePath: process.execPath }),
    home,
    resolver: createPathResolver({ home, gatehouseHome }),
    shell: loadedShell,
    caseInsensitive,
    gitHooksPaths: createGitHooksPaths(home, o.env ?? process.env),
    packageManagerPrograms: createPackageManagerPrograms(home),
    bareRepository: createBareRepositoryFinder(),
    npmPrefix: createNpmPrefix(home, o.env ?? process.env),
    isProgramFile,
    gitUrlCredentialFiles: createGitUrlCredentials(home, o.env ?? process.env),
    repositoryCredential,
    credentialFile,
    secretFileUnder: createSecretFileFinder(
      // By where it is too: a search that follows a link to ~/.aws, or to Gatehouse's own
      // folder (its admin token), reads what is there.
      (name, path) =>
        secretKind(path, home, caseInsensitive) !== undefined ||
        gatehouseFolders.some((h) => path.startsWith(h)) ||
        ((name === '.npmrc' || name === '.yarnrc.yml') && credentialFile(path) !== undefined),
      repositoryCredential,
      isTracked,
    ),
    historySecret: createHistorySecrets({
      isSecret: (path) => secretKind(path, home, caseInsensitive) !== undefined,
      isTracked,
    }),
  };
}
