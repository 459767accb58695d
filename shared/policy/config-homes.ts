/**
 * Where an agent's environment moves its configuration folders: a module of its own, apart
 * from the protected table (protected-locations.ts), so that the hook relay, which reports
 * them with every call, does not load the table.
 */

/**
 * Environment variables that move an agent CLI's configuration folder (or file) elsewhere, and
 * where the table knows it: relative to the home directory, or absolute for a system one. With
 * `CODEX_HOME=~/work/codex`, Codex reads its hooks from `~/work/codex/hooks.json`, which the
 * table only knows as `~/.codex/hooks.json`. As the agent CLIs read them (Codex 0.169, Claude
 * Code 2.1.330, Copilot CLI 1.0.102, Gemini CLI's bundle, OpenCode's binary).
 */
export const CONFIG_HOME_VARIABLES = {
  CODEX_HOME: '.codex',
  CLAUDE_CONFIG_DIR: '.claude',
  // Copilot CLI's user hooks (`hooks/`), settings (which can switch hooks off) and MCP servers.
  COPILOT_HOME: '.copilot',
  XDG_CONFIG_HOME: '.config',
  // OpenCode: one more config file, and one more folder read like a project's `.opencode/`.
  OPENCODE_CONFIG: '.config/opencode/opencode.json',
  OPENCODE_CONFIG_DIR: '.opencode',
  // Gemini CLI's system settings, which override the user's and the project's (hooks included).
  GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/etc/gemini-cli/settings.json',
  GEMINI_CLI_SYSTEM_DEFAULTS_PATH: '/etc/gemini-cli/system-defaults.json',
  // What the agent's shell and git read, where the person's environment names it: bash sources
  // $BASH_ENV before every non-interactive command, zsh its start-up files in $ZDOTDIR, git
  // its global config (aliases, hooksPath) from $GIT_CONFIG_GLOBAL.
  BASH_ENV: '.bashrc',
  ENV: '.profile',
  ZDOTDIR: '',
  GIT_CONFIG_GLOBAL: '.gitconfig',
  GIT_CONFIG_SYSTEM: '/etc/gitconfig',
  // Where Python's user site-packages (a `.pth` file there runs at every Python start), pyenv,
  // nvm, cargo and rustup keep what the person's shell and programs run, when moved.
  PYTHONUSERBASE: '.local',
  PYENV_ROOT: '.pyenv',
  NVM_DIR: '.nvm',
  CARGO_HOME: '.cargo',
  RUSTUP_HOME: '.rustup',
  // Where a tool's config that names a program it runs (aws, docker, gpg), and the caches and
  // tool folders whose code every build or shell runs (Go, Gradle, pre-commit,
  // virtualenvwrapper, pipx), are kept when moved. Each names a folder (or file) of its own,
  // but KUBECONFIG, a list of files (LIST_VARIABLES). npm's global prefix, often a shared
  // folder (`~/.local`), stands for `~/.npm-global`, of which the table protects only what
  // npm installs and runs (bin, lib/node_modules, etc/npmrc).
  AWS_CONFIG_FILE: '.aws/config',
  KUBECONFIG: '.kube/config',
  DOCKER_CONFIG: '.docker',
  GNUPGHOME: '.gnupg',
  GOMODCACHE: 'go/pkg/mod',
  GOCACHE: '.cache/go-build',
  GRADLE_USER_HOME: '.gradle',
  PRE_COMMIT_HOME: '.cache/pre-commit',
  WORKON_HOME: '.virtualenvs',
  PIPX_HOME: '.local/share/pipx',
  NPM_CONFIG_PREFIX: '.npm-global',
} as const;

/**
 * Variables that hold a list, separated by `:` as PATH is: kubectl reads and merges every
 * file KUBECONFIG names, and each can name a credential plugin it runs at every call. npm's
 * prefix is one folder, but the daemon adds the person's own (shared/node/npm-prefix.ts)
 * to the agent's when they differ.
 */
const LIST_VARIABLES: ReadonlySet<string> = new Set(['KUBECONFIG', 'NPM_CONFIG_PREFIX']);

/** Other spellings a program reads a variable by: npm reads its settings in any case. */
const ALIASES: Readonly<Partial<Record<keyof typeof CONFIG_HOME_VARIABLES, string>>> = {
  NPM_CONFIG_PREFIX: 'npm_config_prefix',
};

/** The folders or files a variable's value names: itself, or each entry of a list. */
export function configHomeEntries(name: string, value: string): string[] {
  return LIST_VARIABLES.has(name) ? value.split(':') : [value];
}

/** The agent's {@link CONFIG_HOME_VARIABLES} that are set: absolute paths, by variable. */
export type ConfigHomes = {
  -readonly [K in keyof typeof CONFIG_HOME_VARIABLES]?: string | undefined;
};

/**
 * The agent's config homes in `env`: absolute ones only (a relative one moves with its cwd),
 * and none in /dev or /proc (`GIT_CONFIG_GLOBAL=/dev/null`, common in CI, names no file, and
 * writing /dev/null is no edit of a git config).
 */
export function configHomesIn(env: Readonly<Record<string, string | undefined>>): ConfigHomes {
  const homes: ConfigHomes = {};
  for (const name of Object.keys(CONFIG_HOME_VARIABLES) as (keyof ConfigHomes)[]) {
    const alias = ALIASES[name];
    const value = env[name] ?? (alias === undefined ? undefined : env[alias]);
    if (!value || value.length > 4096) continue;
    const kept = configHomeEntries(name, value).filter(
      (dir) => dir.startsWith('/') && !IN_DEVICES.test(dir),
    );
    if (kept.length) homes[name] = kept.join(':');
  }
  return homes;
}

/**
 * An absolute path in /dev or /proc, however many slashes lead it: the kernel's views, no
 * folder a program or a config is written into (`GIT_CONFIG_GLOBAL=/dev/null`).
 */
export const IN_DEVICES = /^\/+(dev|proc)(\/|$)/;
