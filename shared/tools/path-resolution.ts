/**
 * The types of path resolution both halves share: what a path word resolves to, the
 * {@link PathResolver} port (Node side: shared/node/path-resolver.ts), and a word's use by a
 * command. Apart from shell-paths.ts so that what it calls (tree-writes.ts) can name them too.
 */
/** A path as an agent wrote it, made absolute: as written, and as the kernel resolves it. */
export interface ResolvedPath {
  /** Absolute and normalised (`..` lexically), forward slashes, symlinks not followed. */
  lexical: string;
  /** As the kernel opens it: symlinks of existing parents followed, `..` after them. */
  real: string;
  /** True when the path still holds glob characters (`*`, `?`, `[…]`). */
  glob: boolean;
}

/** What a word needs to be expanded as the shell would. */
export interface ResolveOptions {
  /** Working directories the command may run in: relative paths and `$PWD`. */
  cwds: readonly string[];
  /** Earlier working directories of the same line (`$OLDPWD`, `~-`); absent: unknown. */
  oldCwds?: readonly string[];
  /** Variables the command line assigns itself, name → values. */
  vars: ReadonlyMap<string, readonly string[]>;
  /** The word has no expansion of the shell's (it was quoted): `$` is a plain character. */
  literal?: boolean;
}

/** The paths a word may name, or why Gatehouse cannot know them before the command runs. */
export interface Resolution {
  paths: ResolvedPath[];
  /** Set when the word holds an expansion Gatehouse cannot resolve: the call must ask. */
  unresolved?: string;
}

/** Resolves path words to absolute, real paths (Node side: shared/node/path-resolver.ts). */
export interface PathResolver {
  resolve(word: string, o: ResolveOptions): Resolution;
  /**
   * The files and folders under a directory (an absolute real path), relative to it with
   * forward slashes, as a copy of it reads them: symbolic links listed, followed only when
   * `follow` (`cp -L`). Undefined when `dir` is not a directory; `unreadable` when it cannot
   * be read whole within Gatehouse's bounds. A resolver without it sees no copied folder.
   */
  listTree?(dir: string, follow: boolean): TreeListing | undefined;
  /** Whether an absolute path is a directory now (symbolic links followed). */
  isDirectory?(path: string): boolean;
}

/**
 * A directory's contents as {@link PathResolver.listTree} reads them; when links are
 * followed, `links` holds the real path of every symbolic link met (where the walk goes).
 */
export type TreeListing =
  { entries: readonly string[]; links?: readonly string[] } | { unreadable: string };

/** One word (or redirect target) of a command line and the paths it may name. */
export interface PathUse {
  word: string;
  /** `write` when the command may write it: any word of a program not known to only read. */
  role: 'read' | 'write';
  paths: ResolvedPath[];
  /** Index of the command in `analysis.commands`, or -1 for a path the tool call names. */
  command: number;
  /**
   * The path is what a link the command makes points at (`ln -s TARGET`, a hard link's
   * file): whatever is later read or written through the link reaches it.
   */
  link?: boolean;
  /**
   * A folder a copy puts in place (`cp -r`, `mv`, `rsync -a`): `into` is where its entries
   * land (the destination, and the destination's folder of the same name), `entries` every
   * name inside it (bounded by the listing). `paths` is empty: the protected names among
   * the entries are uses of their own; this one is for the watch of what runs when tests run.
   */
  copied?: { into: readonly ResolvedPath[]; entries: readonly string[] };
}
