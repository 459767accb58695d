import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { expandHomePath } from './home-path';
import { RecentCache } from './recent-cache';

/**
 * npm's global prefix as the person set it, where the protected table does not know it:
 * `npm config set prefix ~/.local` writes `prefix=~/.local` to `~/.npmrc`, and
 * `NPM_CONFIG_PREFIX` (or `npm_config_prefix`) in the environment overrides it. `npm i -g`
 * then installs into `<prefix>/lib/node_modules` and links their programs into
 * `<prefix>/bin`, which stands on the PATH: a file written there runs the next time the
 * person types the tool's name (npm's own included). Read, not asked of npm: npm itself
 * would read an `.npmrc` the agent may have written.
 *
 * Under `npm start` npm hands the effective prefix and user config on as `npm_config_prefix`
 * and `npm_config_userconfig`. Undefined when nothing names one (npm then installs beside its
 * Node, which the table and the PATH check cover), or when the value names no absolute path.
 */
export function createNpmPrefix(
  home: string,
  env: NodeJS.ProcessEnv = process.env,
): () => string | undefined {
  const fromEnv = plainPath(env.NPM_CONFIG_PREFIX ?? env.npm_config_prefix, home, env);
  const userConfig =
    plainPath(env.NPM_CONFIG_USERCONFIG ?? env.npm_config_userconfig, home, env) ??
    join(home, '.npmrc');
  // The file can change while the daemon runs: read again at most once a second.
  const cache = new RecentCache<string | undefined>(1000, 1);
  return () =>
    fromEnv ?? cache.get('prefix', () => plainPath(prefixIn(readOrEmpty(userConfig)), home, env));
}

/** The value of the last `prefix` key of an npmrc (ini: `key = value`, `;` or `#` comments). */
export function prefixIn(npmrc: string): string | undefined {
  let found: string | undefined;
  for (const line of npmrc.split(/\r?\n/)) {
    const m = /^\s*prefix\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    const value = m[1]!;
    found = /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value.replace(/\s[;#].*$/, '');
  }
  return found;
}

/**
 * An absolute path, as npm reads a path setting: `${NAME}` replaced from the environment,
 * then `~/` expanded; else undefined (a variable that is not set, a relative path).
 */
function plainPath(
  value: string | undefined,
  home: string,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (!value || value.length > 4096) return undefined;
  let unknown = false;
  const substituted = value.replace(/\$\{([^}]*)\}/g, (_m, name: string) => {
    const v = env[name];
    if (v === undefined) unknown = true;
    return v ?? '';
  });
  if (unknown) return undefined;
  const expanded = expandHomePath(substituted, home);
  return isAbsolute(expanded) ? expanded : undefined;
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
