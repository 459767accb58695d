import { homedir } from 'node:os';
import { readSmallText } from './read-small-text';
import { configFiles, includedFiles, userConfigFiles } from './git-config-includes';
import { repositoryTop } from './git-hooks-path';
import { RecentCache } from './recent-cache';

/**
 * A `[url "<base>"]` section header (or the old `[url.<base>]` form), whose base git puts in
 * place of what `insteadOf`/`pushInsteadOf` names in every remote URL it reads.
 */
const URL_SECTION = /^\[\s*url(?:\s+"((?:[^"\\]|\\.)*)"|\.([^\]\s]*))\s*\]/i;

/**
 * Whether a rewrite's base carries a credential: an http(s) URL with a user part
 * (`https://TOKEN@github.com/`, `https://x-access-token:TOKEN@…`, `https://oauth2:TOKEN@…`),
 * or any URL whose user part has a password (`user:secret@`). `ssh://git@host/` and
 * `git@host:` name a login, not a secret.
 */
export function isCredentialUrl(base: string): boolean {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)@/i.exec(base);
  if (!m) return false;
  return /^(https?|ftps?)$/i.test(m[1]!) || m[2]!.includes(':');
}

/** Whether a git config file's text rewrites URLs with a credential (see isCredentialUrl). */
export function hasCredentialRewrite(text: string): boolean {
  for (const raw of text.split(/\r?\n/)) {
    const m = URL_SECTION.exec(raw.trim());
    if (m && isCredentialUrl((m[1] ?? m[2] ?? '').replace(/\\(.)/g, '$1'))) return true;
  }
  return false;
}

/**
 * The person's git config files (the user's, the system's, and what they include) that
 * rewrite remote URLs with a credential. git applies such a rewrite to every remote URL it
 * reads, so `git remote -v` in any repository prints the token
 * (`origin https://ghp_…@github.com/org/repo.git`), a common way to give git a token. Read
 * again at most once a second: the files can change while the daemon runs.
 */
export function createGitUrlCredentials(
  home = homedir(),
  env: NodeJS.ProcessEnv = process.env,
): () => readonly string[] {
  const cache = new RecentCache<readonly string[]>(1000, 1);
  return () =>
    cache.get('files', () => {
      const own = userConfigFiles(home, env);
      return [...new Set([...own, ...includedFiles(own, home)])].filter((file) =>
        hasCredentialRewrite(readOr(file)),
      );
    });
}

/**
 * Whether a remote's URL carries a credential: a password in its user part
 * (`https://user:TOKEN@host/`), or a user part that is a token (`https://ghp_…@github.com/`,
 * `glpat-…`, or any 30 characters and more). A user name alone (Bitbucket's
 * `https://name@bitbucket.org/…`) is not one.
 */
export function isRemoteCredential(url: string): boolean {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)@/i.exec(url);
  if (!m) return false;
  const user = m[1]!;
  return user.includes(':') || TOKEN_USER.test(user) || user.length >= 30;
}
const TOKEN_USER = /^(gh[pousr]_|github_pat_|glpat-|gldt-|xox[abp]-)/i;

/**
 * Whether a repository's git config holds a credential: a remote's `url`/`pushurl` with one,
 * a URL rewrite with one, or an `http.extraHeader` (an `Authorization:` header). `git remote
 * -v`, `git config --get remote.origin.url` and `cat .git/config` print it.
 */
export function holdsCredential(text: string): boolean {
  if (hasCredentialRewrite(text)) return true;
  for (const raw of text.split(/\r?\n/)) {
    const m = /^\s*((?:push)?url|extraheader)\s*=\s*"?([^"]*)/i.exec(raw);
    if (m && (m[1]!.toLowerCase() === 'extraheader' || isRemoteCredential(m[2]!.trim())))
      return true;
  }
  return false;
}

/**
 * The config file of the repository `dir` is in (its common one, for a linked worktree);
 * undefined outside a repository.
 */
export function repositoryConfigFile(dir: string): string | undefined {
  const top = repositoryTop(dir);
  return top === undefined ? undefined : configFiles(top)[0];
}

/** A file the agent may have put there (`.npmrc`, `.git`): read as readSmallText does. */
const readOr = (path: string): string => readSmallText(path) ?? '';

/**
 * The config file of the repository a folder is in when it holds a credential
 * ({@link holdsCredential}), else undefined; answers are kept a second.
 */
export function createRepositoryCredentials(): (dir: string) => string | undefined {
  const cache = new RecentCache<string | undefined>(1000, 64);
  return (dir) =>
    cache.get(dir, () => {
      const file = repositoryConfigFile(dir);
      return file && holdsCredential(readOr(file)) ? file : undefined;
    });
}

/**
 * Config files a project keeps that hold a registry token when it is written in them (not
 * `${NPM_TOKEN}`, read from the environment): `.npmrc` (`_authToken`, `_auth`, `_password`)
 * and `.yarnrc.yml` (`npmAuthToken`, `npmAuthIdent`), and the repository's `.git/config`
 * ({@link holdsCredential}). The person's own (`~/.npmrc`) are secrets whatever they hold.
 */
const CREDENTIAL_FILES: readonly {
  name: RegExp;
  holds: (text: string) => boolean;
  kind: string;
}[] = [
  {
    name: /\/\.git\/config$/,
    holds: holdsCredential,
    kind: "the repository's git config, which holds a credential (a remote's URL with a token)",
  },
  {
    name: /\/\.npmrc$/,
    holds: (text) => /^[^#;\n]*(_authToken|_auth|_password)\s*=\s*(?!\$\{)\S/m.test(text),
    kind: 'an npm config that holds a registry token (.npmrc)',
  },
  {
    name: /\/\.yarnrc\.yml$/,
    holds: (text) => /^\s*npmAuth(Token|Ident)\s*:\s*(?!["']?\$\{)\S/m.test(text),
    kind: 'a yarn config that holds a registry token (.yarnrc.yml)',
  },
];

/**
 * What kind of credential file `path` is when it holds one (see CREDENTIAL_FILES), else
 * undefined; only those names are read (answers kept a second).
 */
export function createCredentialFiles(): (path: string) => string | undefined {
  const cache = new RecentCache<string | undefined>(1000, 64);
  return (path) => {
    const file = CREDENTIAL_FILES.find((f) => f.name.test(path));
    return file && cache.get(path, () => (file.holds(readOr(path)) ? file.kind : undefined));
  };
}
