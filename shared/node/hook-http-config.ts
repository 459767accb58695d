/**
 * The http hook's configuration: `$GATEHOUSE_HOME/hook-http.json` (0600) with the loopback
 * port the daemon serves agent hooks on and the secret every request must carry. Written by
 * `gatehouse hook claude-code --install --http`, read by the daemon at start: no file, no
 * port opened. Shared by the installer (clients/) and the daemon (main/).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { replaceFileSync } from './replace-file';

export interface HookHttpConfig {
  /** The loopback port (127.0.0.1) the daemon serves `POST /hooks/<agent>` on. */
  port: number;
  /** Sent by the agent as `Authorization: Bearer <secret>`. */
  secret: string;
}

/** The variable Claude Code reads the secret from into the header (`allowedEnvVars`). */
export const HOOK_SECRET_VARIABLE = 'GATEHOUSE_HOOK_SECRET';

/**
 * The headers the http hook sends variables of Claude Code's own environment in (`$NAME`, from
 * allowedEnvVars; empty when unset), since the daemon's environment is not Claude Code's: its
 * Bash commands inherit CDPATH (`cd name` goes to a CDPATH folder holding `name`) and PATH
 * (a program written into one of its folders runs in place of one of the same name), and its
 * settings and hooks are where CLAUDE_CONFIG_DIR says (git's and others' under
 * XDG_CONFIG_HOME), and what its shell and git run first where BASH_ENV, ENV, ZDOTDIR and
 * GIT_CONFIG_GLOBAL say, and Python, pyenv, nvm, cargo, rustup, aws, kubectl, docker, gpg, Go,
 * Gradle, pre-commit, virtualenvwrapper and pipx where theirs say
 * (shared/policy/config-homes.ts). None is a secret, unlike what the
 * headers could carry of the secret variables (their values). Absent on an install made
 * before them.
 */
export const AGENT_ENV_HEADERS = {
  CDPATH: 'X-Gatehouse-Cdpath',
  PATH: 'X-Gatehouse-Path',
  CLAUDE_CONFIG_DIR: 'X-Gatehouse-Claude-Config-Dir',
  XDG_CONFIG_HOME: 'X-Gatehouse-Xdg-Config-Home',
  BASH_ENV: 'X-Gatehouse-Bash-Env',
  ENV: 'X-Gatehouse-Env',
  ZDOTDIR: 'X-Gatehouse-Zdotdir',
  GIT_CONFIG_GLOBAL: 'X-Gatehouse-Git-Config-Global',
  PYTHONUSERBASE: 'X-Gatehouse-Pythonuserbase',
  PYENV_ROOT: 'X-Gatehouse-Pyenv-Root',
  NVM_DIR: 'X-Gatehouse-Nvm-Dir',
  CARGO_HOME: 'X-Gatehouse-Cargo-Home',
  RUSTUP_HOME: 'X-Gatehouse-Rustup-Home',
  AWS_CONFIG_FILE: 'X-Gatehouse-Aws-Config-File',
  KUBECONFIG: 'X-Gatehouse-Kubeconfig',
  DOCKER_CONFIG: 'X-Gatehouse-Docker-Config',
  GNUPGHOME: 'X-Gatehouse-Gnupghome',
  GOMODCACHE: 'X-Gatehouse-Gomodcache',
  GOCACHE: 'X-Gatehouse-Gocache',
  GRADLE_USER_HOME: 'X-Gatehouse-Gradle-User-Home',
  PRE_COMMIT_HOME: 'X-Gatehouse-Pre-Commit-Home',
  WORKON_HOME: 'X-Gatehouse-Workon-Home',
  PIPX_HOME: 'X-Gatehouse-Pipx-Home',
  NPM_CONFIG_PREFIX: 'X-Gatehouse-Npm-Config-Prefix',
} as const;

export const hookHttpConfigPath = (home: string): string => join(home, 'hook-http.json');

/** The configuration, or undefined when there is none (the http hook was never installed). */
export function readHookHttpConfig(home: string): HookHttpConfig | undefined {
  const path = hookHttpConfigPath(home);
  if (!existsSync(path)) return undefined;
  const raw: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const c = raw as Partial<HookHttpConfig>;
  if (
    typeof c !== 'object' ||
    c === null ||
    !Number.isInteger(c.port) ||
    c.port! < 1 ||
    c.port! > 65535 ||
    typeof c.secret !== 'string' ||
    c.secret.length < 32
  )
    throw new Error(`${path} is not a valid http hook configuration ({ port, secret })`);
  return { port: c.port!, secret: c.secret };
}

/**
 * The configuration, created on first use: a free loopback port (asked of the kernel) and a
 * fresh 256-bit secret. Later installs reuse it, so every installed http hook keeps working.
 */
export async function ensureHookHttpConfig(home: string): Promise<HookHttpConfig> {
  const existing = readHookHttpConfig(home);
  if (existing) return existing;
  const config = { port: await freeLoopbackPort(), secret: randomBytes(32).toString('base64url') };
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const path = hookHttpConfigPath(home);
  replaceFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  return config;
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
