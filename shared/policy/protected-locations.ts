/**
 * The one table of protected locations: files that decide what an agent may do or
 * what runs later without anyone asking. Writing any of them asks as `critical` whatever the
 * rules say, by any tool or shell command, matched on the path as the kernel resolves it.
 * Pure: the daemon (main/engine/policy/protected-paths.ts), the hook's mapping
 * (shared/tools/action-spec.ts) and its offline table share it. Listed in docs/policy.md.
 */

import { CONFIG_HOME_VARIABLES, configHomeEntries, type ConfigHomes } from './config-homes';

export type { ConfigHomes } from './config-homes';

/** Why a location is protected; each kind is its own `protected:` rule. */
export type ProtectedKind = 'gatehouse_policy' | 'agent_config' | 'vcs' | 'startup';

export interface ProtectedLocation {
  kind: ProtectedKind;
  /** What it is, for the person: "Claude Code's hook and permission settings". */
  what: string;
}

interface Entry extends ProtectedLocation {
  /** Matched against the whole path (forward slashes), at any depth: project or user level. */
  anywhere?: RegExp;
  /** Matched against the path relative to the home directory (no leading slash). */
  home?: RegExp;
}

/** `dir/…`: the folder itself and everything in it. */
const tree = (dir: string): string => `${dir}(/.*)?$`;
const at = (tail: string): RegExp => new RegExp(`(^|/)${tail}`);

/**
 * The agent CLIs' system-wide (managed) settings, above the user's own (hooks included):
 * Claude Code's `/etc/claude-code/` (managed-settings.json and its drop-in folder), Codex's
 * `/etc/codex/` (config.toml, requirements.toml, managed_config.toml), Gemini CLI's
 * `/etc/gemini-cli/`, OpenCode's `/etc/opencode/`, and where macOS and Windows keep them.
 */
const SYSTEM_CONFIG =
  /^([a-z]:)?\/(etc|library\/application support|program files|programdata)\/(claude-?code|codex|gemini-?cli|opencode)(\/.*)?$/i;

/**
 * What every user's shells, git and programs run: the system's shell start-up files, git's
 * system config, the preload list and library path every program loads, the folders on
 * everyone's PATH, and the libraries and interpreters' packages those programs load (a `.pth`
 * file or `sitecustomize.py` in Python's site-packages, or Debian's `/etc/python3.*`, runs at
 * every Python start), and what cron, systemd, init, the desktop's autostart and launchd start on
 * their own. Only root writes them, but an agent in a container often runs as root, and a
 * program of its own there named `git` would run at the next `git status` Gatehouse allows.
 * Homebrew's prefix (`/opt/homebrew`, Linuxbrew's, and its folders in `/usr/local`) holds the
 * same for the programs it installs, the links on the PATH and what they point to, and the
 * user owns it: all of it but its `var` data.
 */
const SYSTEM_STARTUP =
  /^\/(etc\/(gitconfig|bash\.bashrc|profile|environment|ld\.so\.preload|ld\.so\.conf|zsh\/.*|(profile|ld\.so\.conf)\.d(\/.*)?|python3[^/]*\/.*|crontab|cron\.[a-z]+(\/.*)?|systemd(\/.*)?|init\.d(\/.*)?|rc\.local|xdg\/autostart(\/.*)?)|var\/spool\/cron(\/.*)?|Library\/Launch(Agents|Daemons)(\/.*)?|(opt\/homebrew|home\/linuxbrew\/\.linuxbrew)(\/(?!var(\/|$)).*)?|usr\/local\/(Cellar|Caskroom|Homebrew|opt)(\/.*)?|(usr\/(local\/)?)?(s?bin|lib(32|64|x32|exec)?)(\/.*)?)$/;

const TABLE: readonly Entry[] = [
  // Gatehouse's own policy file: what agents may do in a project.
  {
    kind: 'gatehouse_policy',
    what: 'a Gatehouse policy file',
    anywhere: at('\\.gatehouse\\.toml$'),
  },
  // The hook and permission configuration of every agent Gatehouse guards.
  {
    kind: 'agent_config',
    what: "Claude Code's settings, hooks and extensions",
    anywhere: at(
      `\\.claude/(settings[^/]*\\.json$|${tree('(skills|plugins|commands|agents|hooks|output-styles)')})`,
    ),
  },
  { kind: 'agent_config', what: "Claude Code's MCP servers", anywhere: at('\\.mcp\\.json$') },
  {
    kind: 'agent_config',
    // Its global config (user MCP servers, which it starts): `~/.claude.json` (`-custom-oauth`
    // and other variants by login), the legacy `.config.json` in its config folder, which wins
    // when present, and `.claude.json` itself where CLAUDE_CONFIG_DIR moves that folder
    // (mapped to `~/.claude/.claude.json`), as Claude Code 2.1.330 reads them.
    what: "Claude Code's user settings",
    home: /^(\.claude(-[a-z]+)*\.json|\.claude\/(\.config|\.claude(-[a-z]+)*)\.json)$/,
  },
  {
    kind: 'agent_config',
    what: "Codex's config and hooks",
    anywhere: at('\\.codex/(config\\.toml|hooks\\.json)$'),
  },
  {
    kind: 'agent_config',
    // trustedFolders.json: a project Gemini CLI does not trust has its settings, and so a
    // project-level Gatehouse hook, ignored.
    what: "Gemini CLI's settings, extensions and trusted folders",
    anywhere: at(`\\.gemini/(settings\\.json$|trustedFolders\\.json$|${tree('extensions')})`),
  },
  {
    kind: 'agent_config',
    what: "Copilot CLI's hooks and settings",
    anywhere: at(`\\.github/(${tree('hooks')}|copilot/settings[^/]*\\.json$)`),
  },
  { kind: 'agent_config', what: "Copilot CLI's user config", anywhere: at(tree('\\.copilot')) },
  {
    kind: 'agent_config',
    what: "OpenCode's config and plugins",
    anywhere: at(`(opencode\\.jsonc?$|${tree('\\.opencode')}|${tree('\\.config/opencode')})`),
  },
  { kind: 'agent_config', what: "Cursor's hooks", anywhere: at('\\.cursor/hooks\\.json$') },
  { kind: 'agent_config', what: "Cursor's user config", home: new RegExp(tree('\\.cursor')) },
  {
    kind: 'agent_config',
    // Only root writes them, but agents in containers often run as root.
    what: "an agent CLI's system-wide (managed) settings",
    anywhere: SYSTEM_CONFIG,
  },
  // Gemini CLI loads the nearest `.env` (or `.gemini/.env`) from its folder up to home into
  // its own environment, and Codex `~/.codex/.env`; every hook they run inherits it, so a
  // written one picks where the Gatehouse hook looks for the daemon and what it does without.
  {
    kind: 'agent_config',
    what: "an environment file an agent CLI loads into its own environment and its hooks' (Gemini CLI's .env, Codex's ~/.codex/.env)",
    anywhere: at('\\.env$'),
  },
  // Version control internals that run code: hooks, config (fsmonitor, aliases, filters).
  {
    kind: 'vcs',
    what: "git's config or hooks, which decide what git runs",
    anywhere: at(
      `[^/]*\\.git/((modules/.+/|worktrees/[^/]+/)?(config(\\.worktree)?$|${tree('hooks')}|${tree('info')}))`,
    ),
  },
  { kind: 'vcs', what: 'a git folder or link (gitdir)', anywhere: at('\\.git$') },
  {
    kind: 'vcs',
    what: 'a git file that picks the filter, diff and merge programs git runs',
    anywhere: at('\\.(gitattributes|gitmodules)$'),
  },
  {
    kind: 'vcs',
    what: 'commit hooks (husky, pre-commit, lefthook)',
    anywhere: at(`(${tree('\\.husky')}|\\.pre-commit-config\\.yaml$|\\.?lefthook\\.ya?ml$)`),
  },
  // Shell start-up files and package-manager configs: code that runs in later commands.
  {
    kind: 'startup',
    what: 'a shell start-up file',
    home: /^(\.bashrc|\.bash_profile|\.bash_login|\.bash_logout|\.profile|\.zshrc|\.zprofile|\.zshenv|\.zlogin|\.zlogout|\.kshrc|\.mkshrc|\.xprofile|\.pam_environment|\.inputrc)$/,
  },
  // What those files (or the programs a person starts) load in turn: Debian's default .bashrc
  // sources ~/.bash_aliases, Fedora's ~/.bashrc.d/*, Oh My Zsh its custom/ scripts; starship
  // runs its custom modules at every prompt; an editor, tmux, gdb or less (lesskey's #env sets
  // LESSOPEN) runs what its config says when the person starts it. bash-completion sources
  // ~/.bash_completion in every interactive bash and a command's file in its user folder at
  // its first completion; fish its user vendor folders at every start; neovim its plugins, VS
  // Code (and its forks) its extensions and the terminal its user settings name.
  {
    kind: 'startup',
    what: 'a file a shell, prompt, editor, terminal multiplexer or pager runs when it starts',
    home: new RegExp(
      `^(\\.bash_aliases|${tree('\\.bashrc\\.d')}|${tree('\\.oh-my-zsh')}|${tree('\\.zprezto')}|\\.config/starship\\.toml|\\.vimrc|\\.gvimrc|${tree('\\.vim')}|${tree('\\.config/nvim')}|\\.emacs|${tree('\\.emacs\\.d')}|\\.tmux\\.conf|${tree('\\.config/tmux')}|\\.gdbinit|\\.lesskey|\\.config/lesskey|\\.bash_completion|${tree('\\.local/share/(bash-completion|nvim|fish/vendor_(conf|functions|completions)\\.d)')}|${tree('\\.(vscode|vscode-oss)/extensions')}|${tree('\\.vscode-server')}|${tree('(\\.config|Library/Application Support)/(Code|Code - OSS|VSCodium|Cursor)/User')})$`,
    ),
  },
  // What an interpreter's or a database client's interactive start runs (R's .Rprofile, irb's
  // and pry's rc files, IPython's and Jupyter's startup code and configs, Julia's startup.jl,
  // ghci's, psql's and sqlite3's rc files, whose commands can run a shell, mysql's pager,
  // lldb's and screen's), and what a graphical login or a terminal runs (X's session scripts,
  // the window managers' and terminals' configs, which start programs).
  {
    kind: 'startup',
    what: 'a file an interpreter, database client, debugger, graphical session, window manager or terminal runs when it starts',
    home: new RegExp(
      `^(\\.Rprofile|\\.Renviron|\\.irbrc|\\.pryrc|${tree('\\.ipython')}|${tree('\\.jupyter')}|${tree('\\.julia/config')}|\\.ghci|${tree('\\.ghc')}|\\.psqlrc|\\.sqliterc|\\.my\\.cnf|\\.lldbinit|\\.screenrc|\\.xinitrc|\\.xsession|\\.xsessionrc|\\.wezterm\\.lua|${tree('\\.config/(i3|sway|hypr|openbox|awesome|bspwm|kitty|alacritty|wezterm)')}|${tree('\\.hammerspoon')})$`,
    ),
  },
  {
    kind: 'startup',
    what: 'a login item launchd starts on its own (~/Library/LaunchAgents)',
    home: new RegExp(tree('Library/LaunchAgents')),
  },
  {
    kind: 'startup',
    what: 'user configuration that runs programs (fish, git, pip, pnpm, systemd, autostart)',
    home: new RegExp(
      tree('\\.config/(fish|git|pip|pnpm|environment\\.d|autostart|systemd|direnv|mise)'),
    ),
  },
  // What an agent CLI runs ahead of every shell command of its own, without asking anyone:
  // Claude Code sources its shell snapshot (the person's functions, aliases and options) and
  // the scripts SessionStart hooks leave in session-env; Codex its shell snapshot. Written,
  // every later command, an `ls` Gatehouse allows included, runs what they say first.
  {
    kind: 'startup',
    what: "a script an agent CLI runs before each of its shell commands (Claude Code's shell snapshots and session-env, Codex's shell snapshots)",
    anywhere: at(
      `(\\.claude/${tree('(shell-snapshots|session-env|rm-guard)')}|\\.codex/${tree('shell_snapshots')})`,
    ),
  },
  {
    // Debian's and Ubuntu's ~/.profile put both on the PATH of every login that finds them.
    kind: 'startup',
    what: 'programs on your PATH (~/.local/bin, ~/bin)',
    home: new RegExp(`${tree('\\.local/bin')}|^${tree('bin')}`),
  },
  // What runs at every start of an interpreter or tool installed in the home, or that a shell
  // start-up file sources: a `.pth` file or `usercustomize.py` in Python's user site-packages
  // (Linux and macOS) runs at every Python start, the person's own included; pyenv's shims,
  // nvm's nvm.sh, rustup's ~/.cargo/env, sdkman's and asdf's scripts are sourced by the shell
  // or stand first on its PATH; npx runs its cached packages and corepack its cached pnpm and
  // yarn in every project (the agent's own `npx prettier` or `pnpm test` Gatehouse allows, and
  // the person's later ones). pipx, uv, npm's and yarn's global folders and the like hold the
  // tools whose links stand in ~/.local/bin or on the PATH; virtualenvwrapper's and pipenv's
  // environments are activated (sourced) by the person's shell. The build tools' caches hold
  // what every project's build compiles and runs, trusted once downloaded: cargo's crate
  // sources (their build.rs), Go's module and build caches, Maven's and Gradle's jars and
  // plugins, the Gradle distribution `./gradlew` starts, and the hook repositories pre-commit
  // runs at every `git commit`.
  {
    kind: 'startup',
    what: "an interpreter, toolchain or package folder in your home that your shell or every start of its program runs (Python's user site-packages, pyenv, nvm, rbenv, asdf, sdkman, conda, rustup and cargo, volta, bun, deno, Go's bin, npx's and corepack's caches), or a build tool's cache of the code every project's build runs (cargo, Go, Maven, Gradle, pre-commit)",
    home: new RegExp(
      `^${tree(
        '(\\.local/lib/python[^/]*/site-packages|Library/Python/[^/]+/lib/python/site-packages|\\.(pyenv|nvm|rbenv|nodenv|goenv|jenv|plenv|phpenv|luaenv|tfenv)|\\.asdf|\\.sdkman|\\.rustup|\\.cargo/(bin|env(\\.[a-z]+)?|registry|git)|\\.volta|\\.bun/bin|\\.deno/bin|go/(bin|pkg/mod)|\\.local/share/(mise|pnpm|fnm|pipx|uv|virtualenvs)|\\.local/pipx|\\.virtualenvs|\\.npm-packages|\\.npm-global/(bin|lib/node_modules|etc/npmrc)|\\.yarn/bin|\\.config/yarn/global|\\.dotnet/tools|(\\.config/)?\\.?composer/vendor|\\.gem|\\.rvm|\\.luarocks|\\.ghcup|\\.cabal/bin|\\.pub-cache/bin|\\.opam|\\.elan|\\.juliaup|\\.krew/bin|\\.nix-profile|\\.linuxbrew|miniconda3|anaconda3|miniforge3|mambaforge|\\.npm/_npx|\\.cache/(node/corepack|go-build|pre-commit)|\\.m2/repository|\\.gradle/(caches|wrapper))',
      )}`,
    ),
  },
  {
    kind: 'startup',
    what: "the system's shell start-up files, git config, preloaded libraries, programs on everyone's PATH, the libraries and Python packages they load, or what cron, systemd, init, autostart and launchd start",
    anywhere: SYSTEM_STARTUP,
  },
  {
    kind: 'startup',
    what: 'a user configuration file of git, ssh or a package manager',
    home: new RegExp(
      `^(\\.gitconfig|\\.pypirc|\\.condarc|\\.gemrc|\\.bunfig\\.toml|${tree('\\.pip')}|${tree('\\.ssh')}|\\.m2/settings\\.xml|${tree('\\.gradle/init\\.d')}|\\.gradle/gradle\\.properties|\\.bundle/config)$`,
    ),
  },
  // What a cloud, container or signing tool's config names to run at each use of it: aws's
  // `credential_process`, kubectl's `exec` credential plugin, docker's credential helper and
  // CLI plugins, terraform's provider overrides, gpg's pinentry (at every signed commit).
  {
    kind: 'startup',
    what: 'a cloud, container or signing tool config that names a program it runs (aws, kubectl, docker, terraform, gpg)',
    home: new RegExp(
      `^(\\.aws/config|\\.kube/config|\\.docker/config\\.json|${tree('\\.docker/cli-plugins')}|\\.terraformrc|\\.gnupg/(gpg|gpg-agent|scdaemon|dirmngr)\\.conf)$`,
    ),
  },
  {
    kind: 'startup',
    // mise's config runs its hooks and `_.source` scripts when a shell enters the folder.
    what: 'a package-manager or environment config, which decides what installs and scripts run',
    anywhere: at(
      '(\\.npmrc|\\.yarnrc(\\.yml)?|\\.env\\.yarn|\\.pnpmfile\\.c?js|\\.envrc|\\.cargo/config(\\.toml)?|pip\\.conf|bunfig\\.toml|\\.?mise(\\.[\\w-]+)?\\.toml|\\.mise/config\\.toml|\\.config/mise(\\.toml|/config\\.toml))$',
    ),
  },
  // What Yarn Berry runs at every command, or loads into every script: the release its
  // `.yarnrc.yml` names (`yarnPath`, which yarn 1 on the PATH runs instead of itself too) and
  // the plugins it lists, both kept in `.yarn/`; the Plug'n'Play loader (`.pnp.cjs`,
  // `.pnp.loader.mjs` and the data they read), required into every `yarn run` and `yarn test`;
  // the editor SDKs VS Code's workspace settings run. A release or plugin named elsewhere is
  // found by reading the configs (shared/node/package-manager-programs.ts).
  {
    kind: 'startup',
    what: "Yarn's release, plugins, editor SDKs or Plug'n'Play loader, which run at every yarn command or script",
    anywhere: at(
      `(${tree('\\.yarn/(releases|plugins|sdks)')}|\\.pnp\\.(c?js|loader\\.mjs|data\\.json)$)`,
    ),
  },
  {
    kind: 'startup',
    // In a folder the person trusts, VS Code and its forks run what the workspace settings
    // name (`git.path`, an interpreter, a terminal profile and its environment) and a task
    // marked to run when the folder opens, with no further prompt; a dev container's
    // `initializeCommand` runs on the host when the person reopens the folder in it.
    what: "an editor workspace's settings or tasks, or a dev container's config, which name programs the editor runs when the folder opens",
    anywhere: at(
      '(\\.vscode/(settings|tasks)\\.json|\\.devcontainer\\.json|\\.devcontainer(/.*)?|[^/]*\\.code-workspace)$',
    ),
  },
];

/** A name some `anywhere` entry needs; a path without one can only match a home entry. */
const MENTIONS =
  /\.(claude|mcp|codex|gemini|github|copilot|opencode|cursor|git|husky|pre-commit|npmrc|yarn|pnp|pnpmfile|env|cargo|config|vscode|devcontainer|code-workspace)|opencode|lefthook|pip\.conf|bunfig|mise|gatehouse/;

/** Folder names that hold protected locations: replacing or removing the folder is a write too. */
const HOLDERS =
  /(^|\/)(\.claude|\.codex|\.gemini|\.copilot|\.cursor|\.opencode|\.husky|\.github|\.vscode)$/;
/** Folders in the home directory that hold protected locations. */
const HOME_HOLDERS =
  /^(\.config(\/(yarn|composer|Code|Code - OSS|VSCodium|Cursor))?|\.local(\/(share(\/fish)?|lib(\/python[^/]*)?))?|\.(aws|kube|docker|gnupg|vscode|vscode-oss|yarn|julia|dotnet|cabal|pub-cache|krew|composer)|\.cargo|\.gradle|\.m2|\.bundle|Library(\/(Python(\/[^/]+(\/lib(\/python)?)?)?|Application Support(\/(Code|Code - OSS|VSCodium|Cursor))?))?|go(\/pkg)?|\.bun|\.deno|\.npm|\.npm-global(\/lib|\/etc)?|\.cache(\/node)?)$/;

/**
 * The table, its home-only entries and the holders, as matched: as written, or without case
 * where the file system ignores it (macOS, Windows), whose paths are compared lowercased (a
 * `Library/Python` or `.config/Code` entry would never match them as written).
 */
const MATCHERS = [false, true].map((ci) => {
  const withoutCase = (r: RegExp): RegExp =>
    ci && !r.flags.includes('i') ? new RegExp(r.source, `${r.flags}i`) : r;
  const table: readonly Entry[] = TABLE.map((e) => ({
    ...e,
    ...(e.anywhere ? { anywhere: withoutCase(e.anywhere) } : {}),
    ...(e.home ? { home: withoutCase(e.home) } : {}),
  }));
  return {
    table,
    homeOnly: table.filter((e) => !e.anywhere),
    holders: withoutCase(HOLDERS),
    homeHolders: withoutCase(HOME_HOLDERS),
    systemStartup: withoutCase(SYSTEM_STARTUP),
  };
});

const fold = (s: string, ci: boolean): string => (ci ? s.toLowerCase() : s);

/**
 * The protected location an absolute path (forward slashes) is, holds or replaces, or
 * undefined. `home` is the user's home; `extra` are more protected folders (the
 * `core.hooksPath` of the repositories concerned); `homes` the agent's moved config folders.
 */
export function protectedLocation(
  path: string,
  home: string,
  caseInsensitive = false,
  extra: readonly string[] = [],
  homes: ConfigHomes = {},
): ProtectedLocation | undefined {
  const p = fold(path.replace(/\/+$/, '') || '/', caseInsensitive);
  const h = fold(home.replace(/\/+$/, ''), caseInsensitive);
  // A path in a moved config folder is judged as the same path in the folder it stands for.
  for (const [name, value] of Object.entries(homes) as [keyof ConfigHomes, string | undefined][]) {
    if (!value) continue;
    for (const dir of configHomeEntries(name, value)) {
      const d = fold(dir.replace(/\/+$/, '') || '/', caseInsensitive);
      if (!h || d === '/' || (p !== d && !p.startsWith(`${d}/`))) continue;
      const known: string = CONFIG_HOME_VARIABLES[name];
      // Absolute: a system location; empty: the home folder itself (ZDOTDIR).
      const base = known.startsWith('/') ? known : known ? `${h}/${known}` : h;
      const moved = `${base}${p.slice(d.length)}`;
      const loc = protectedLocation(moved, h, caseInsensitive, extra);
      if (loc) return loc;
    }
  }
  // Without a home (the hook's pure mapping) only the entries at any depth apply.
  const rel = h && p.startsWith(`${h}/`) ? p.slice(h.length + 1) : undefined;
  // Most paths hold none of the names in the table: one test instead of twenty.
  const m = MATCHERS[caseInsensitive ? 1 : 0]!;
  const named = MENTIONS.test(p) || SYSTEM_CONFIG.test(p) || m.systemStartup.test(p);
  for (const e of named ? m.table : m.homeOnly) {
    if (e.anywhere?.test(p) || (rel !== undefined && e.home?.test(rel)))
      return { kind: e.kind, what: e.what };
  }
  for (const dir of extra) {
    const d = fold(dir.replace(/\/+$/, ''), caseInsensitive);
    if (p === d || p.startsWith(`${d}/`))
      return {
        kind: 'vcs',
        what: 'a git hooks folder (core.hooksPath) or a config file git includes, which decide what git runs',
      };
  }
  if (m.holders.test(p) || (rel !== undefined && m.homeHolders.test(rel)))
    return { kind: 'agent_config', what: 'a folder that holds agent or tool configuration' };
  if (h && (p === h || h.startsWith(`${p}/`) || p === '/'))
    return { kind: 'startup', what: 'your home folder (or a folder holding it)' };
  return undefined;
}

/** A resolved path that reaches a process's memory or a network socket instead of a file. */
export function specialDevice(path: string): string | undefined {
  if (!path.startsWith('/proc') && !path.startsWith('/dev/')) return undefined;
  if (
    /^\/proc\/(self|thread-self|\d+)(\/|$)/.test(path) ||
    /^\/proc\/[^/]+\/(mem|environ|cwd|root|fd|maps|exe|task)(\/|$)/.test(path)
  )
    return "another process's memory, environment or files (/proc/<pid>), Gatehouse's included";
  if (/^\/dev\/(tcp|udp)\//.test(path)) return 'a network connection (/dev/tcp, /dev/udp)';
  return undefined;
}
