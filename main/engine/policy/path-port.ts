import type { ShellParser } from '../../../shared/tools/shell-syntax';

/** A path as an agent wrote it, made absolute: as written, and with symlinks resolved. */
export interface ResolvedPath {
  /** Absolute and normalised, forward slashes, symlinks not followed. */
  lexical: string;
  /** `lexical` with the longest existing prefix replaced by its real path. */
  real: string;
  /** True when the path still holds glob characters (`*`, `?`, `[…]`, `{a,b}`). */
  glob: boolean;
}

export interface ResolveOptions {
  /** Directories relative paths are taken against (the session's cwd, `cd` targets). */
  cwds: readonly string[];
  /** Variables the command line assigns itself, name → values. */
  vars: ReadonlyMap<string, readonly string[]>;
}

/**
 * Turns a path word into the absolute paths it may name: expands `~`, `$HOME`, `${HOME}`,
 * `$GATEHOUSE_HOME` and the command's own assignments (an unknown expansion becomes `*`),
 * makes relative paths absolute against each cwd and resolves symlinks. Node side: the
 * engine only sees this port.
 */
export interface PathResolver {
  resolve(word: string, o: ResolveOptions): ResolvedPath[];
}

/** What the engine needs to protect Gatehouse's own files and the user's secrets. */
export interface PathProtection {
  /** Gatehouse's data dir (admin.token, database), settings dir and socket dir; absolute. */
  protectedRoots: readonly string[];
  /** The user's home directory, absolute. */
  home: string;
  resolver: PathResolver;
  shell: ShellParser;
  /** File names compare without case (macOS and Windows file systems). */
  caseInsensitive: boolean;
}
