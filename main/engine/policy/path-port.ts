import type { PathResolver } from '../../../shared/tools/shell-paths';
import type { ShellParser } from '../../../shared/tools/shell-syntax';
import type { SecretFound, SecretWalk } from '../../../shared/tools/commands/secret-walk';

export type {
  PathResolver,
  ResolvedPath,
  ResolveOptions,
  Resolution,
} from '../../../shared/tools/shell-paths';

/** What the engine needs to protect Gatehouse's own files and the user's secrets. */
export interface PathProtection {
  /** Gatehouse's data dir (admin.token, database), settings dir and socket dir; absolute. */
  protectedRoots: readonly string[];
  /**
   * Where the program's packages are loaded from (main/protection.ts): writing there
   * rewrites Gatehouse as much as writing its program does; reading is harmless.
   */
  programPackageRoots?: readonly string[];
  /** The user's home directory, absolute. */
  home: string;
  /**
   * Turns a path word into the absolute paths it may name, as the shell and the kernel would
   * (shared/node/path-resolver.ts); the engine only sees this port.
   */
  resolver: PathResolver;
  shell: ShellParser;
  /** File names compare without case (macOS and Windows file systems). */
  caseInsensitive: boolean;
  /**
   * The hooks folders git runs for the repositories holding these directories (each one's
   * `core.hooksPath`, shared/node/git-hooks-path.ts): writing there runs code like `.git/hooks`.
   */
  gitHooksPaths?(dirs: readonly string[]): string[];
  /**
   * The program files the package managers' configs name for commands run in these
   * directories or above (Yarn's `yarnPath` and plugins, `.yarnrc`'s `yarn-path`, npm's and
   * pnpm's `script-shell` and `pnpmfile`; shared/node/package-manager-programs.ts): writing
   * one runs code at the next `yarn why` or `yarn test`, like writing the config itself.
   */
  packageManagerPrograms?(dirs: readonly string[]): string[];
  /**
   * The bare repository git would find by itself from `dir` (a folder holding HEAD, objects
   * and refs above it before any `.git`; shared/node/bare-repository.ts), else undefined.
   */
  bareRepository?(dir: string): string | undefined;
  /**
   * npm's global prefix as the person set it (`~/.npmrc`, or the daemon's environment;
   * shared/node/npm-prefix.ts): protected as the agent's own `NPM_CONFIG_PREFIX` is.
   */
  npmPrefix?(): string | undefined;
  /**
   * Whether a file the shell would run by name is there (an executable regular file,
   * shared/node/program-file.ts): asked only for a PATH with relative entries.
   */
  isProgramFile?(path: string): boolean;
  /**
   * The person's git config files whose URL rewrites hold a credential
   * (shared/node/git-url-credentials.ts): `git remote -v` prints it.
   */
  gitUrlCredentialFiles?(): readonly string[];
  /**
   * The config file of the repository `dir` is in when it holds a credential (a remote's URL
   * with a token, an `http.extraHeader`; shared/node/git-url-credentials.ts), else undefined:
   * `cat .git/config` and `git remote -v` print it.
   */
  repositoryCredential?(dir: string): string | undefined;
  /**
   * What kind of credential file `path` is when it holds one by what is written in it (a
   * repository's `.git/config` with a token, a project's `.npmrc` with a registry token),
   * else undefined (shared/node/git-url-credentials.ts).
   */
  credentialFile?(path: string): string | undefined;
  /**
   * The first secret file (`.env`, `*.pem`, `*.key`) a search walking `dir` reads
   * (shared/node/secret-files.ts): `grep -rn KEY .` prints the lines of the project's `.env`;
   * `unwalked` when it holds more names than the walk looks at and none of those is one.
   */
  secretFileUnder?(dir: string, walk: SecretWalk): SecretFound | undefined;
  /**
   * A secret file (by name) the history of the repository `dir` is in has held, under the
   * pathspecs (taken from `dir`; none: anywhere), else undefined; `unread` when the history
   * could not be read (main/history-secrets.ts): `git log -p` prints a `.env` removed since.
   * `tracked`: only one git's index lists now (`git diff` prints a tracked file's changes).
   */
  historySecret?(
    dir: string,
    pathspecs: readonly string[],
    tracked?: boolean,
  ): HistorySecret | undefined;
}

/** A secret in a repository's history, or why its history was not read. */
export type HistorySecret = { path: string } | { unread: string };
