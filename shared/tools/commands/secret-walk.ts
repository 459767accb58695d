/** Which files under a folder a search reads. */
export interface SecretWalk {
  /** Whether it reads hidden files and folders (`.env`): `grep -r` does, rg and ag only when told. */
  hidden: boolean;
  /**
   * Whether it reads no file a repository's `.gitignore` keeps out, as rg and ag do inside a
   * repository unless told otherwise (and the agents' own search tools, which run rg or `git
   * grep`). Such a search is asked about only for what rg told nothing would not read: a
   * hidden name (rg told nothing reads what the repository shares, and is not walked).
   */
  ignores: boolean;
  /** Globs a file's name must match to be read (`grep --include`, `rg -g`); none: any name. */
  only: readonly string[];
  /** The globs match without regard to case (`rg --iglob`). */
  caseless?: boolean;
}
