/** Which files under a folder a search reads. */
export interface SecretWalk {
  /** Whether it reads hidden files and folders (`.env`): `grep -r` does, rg and ag only when told. */
  hidden: boolean;
  /**
   * Whether it reads no file a repository's `.gitignore` keeps out, as rg and ag do inside a
   * repository unless told otherwise (and the agents' own search tools, which run rg or `git
   * grep`): a secret .gitignore keeps out is not read.
   */
  ignores: boolean;
  /**
   * It reads the files the repository tracks and no other (plain `git grep`): a secret counts
   * when git's index lists it, whatever .gitignore says.
   */
  tracked?: boolean;
  /** Globs a file's name must match to be read (`grep --include`, `rg -g`); none: any name. */
  only: readonly string[];
  /**
   * It follows symbolic links to folders and files as it walks (`grep -R`, `rg -L`): a link in
   * the project to a folder elsewhere is read through.
   */
  follow?: boolean;
  /** The globs match without regard to case (`rg --iglob`). */
  caseless?: boolean;
  /**
   * How many folders down it reads: 0, the files in the folder itself (`diff` of two folders
   * without `-r`); absent, every folder under it.
   */
  depth?: number;
}

/**
 * What a walk for secrets found: a secret file (its path), or `unwalked`, the folder whose
 * names ran past what the walk looks at before it found one (what is past them is not known).
 */
export type SecretFound = string | { unwalked: string; names: number };
