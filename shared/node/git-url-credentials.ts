import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { includedFiles, userConfigFiles } from './git-config-includes';
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
      return [...new Set([...own, ...includedFiles(own, home)])].filter((file) => {
        try {
          return hasCredentialRewrite(readFileSync(file, 'utf8'));
        } catch {
          return false;
        }
      });
    });
}
