import { PYTHON_RUNNER_MODULE_NAMES } from '../../../shared/tools/commands/runners';
import type { RunInputChangeRow } from './policy-store';

type Group = RunInputChangeRow['group'];

/**
 * Files that decide what a test or build command runs: changing one changes what the next
 * `npm test`, `make test`, `pytest` or `cargo test` executes. Matched on the
 * file's name anywhere in the project.
 */
const TEST_INPUT_NAMES = new Set([
  'package.json',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  // pnpm 10 reads its settings here too (`scriptShell`, `nodeOptions`).
  'pnpm-workspace.yaml',
  'bunfig.toml',
  'deno.json',
  'deno.jsonc',
  'Makefile',
  'makefile',
  'GNUmakefile',
  'justfile',
  'Justfile',
  '.justfile',
  'Rakefile',
  'tox.ini',
  'noxfile.py',
  'conftest.py',
  'pytest.ini',
  '.pytest.ini',
  '.coveragerc',
  'pyproject.toml',
  'setup.cfg',
  'setup.py',
  'Cargo.toml',
  'build.rs',
  '.cargo/config.toml',
  'build.gradle',
  'build.gradle.kts',
  'settings.gradle',
  'pom.xml',
  // Checkers Gatehouse lets run that load code their config names: pylint's `init-hook` and
  // `load-plugins`, mypy's `plugins`, flake8's local plugins, golangci-lint's custom linters,
  // tap's `node-arg`, rspec's `--require`, phpunit's `bootstrap`.
  '.pylintrc',
  'pylintrc',
  'mypy.ini',
  '.mypy.ini',
  '.flake8',
  '.golangci.yml',
  '.golangci.yaml',
  '.golangci.toml',
  '.golangci.json',
  '.taprc',
  '.rspec',
  '.rspec-local',
  'phpunit.xml',
  'phpunit.xml.dist',
]);

/**
 * Config files of test runners, linters, formatters and bundlers, whatever their extension
 * (`vitest.config.mts`, `eslint.config.js`, `.prettierrc.cjs`): the JS/TS ones are programs
 * the runner imports, and the others name plugins it loads.
 */
const TEST_INPUT_PATTERN =
  /^(jest|vitest|vitest\.workspace|playwright|cypress|karma|ava|vite|webpack|rollup|babel|eslint|prettier|stylelint|postcss|tailwind|tsup|next|nuxt|svelte|astro|lint-staged)\.config\.[a-z]+$|^karma\.conf\.[a-z]+$|^\.(mocharc|babelrc|eslintrc|prettierrc|stylelintrc|lintstagedrc)(\.[a-z]+)?$|\.mk$/;

/**
 * Code a test run loads from the project itself: what a bare runner name resolves to
 * (`npx vitest` runs `node_modules/.bin/vitest`; `pytest` in an activated virtualenv runs
 * `.venv/bin/pytest`), and the packages those import (a `.pth` file in a virtualenv's
 * site-packages runs at every Python start); under Yarn's Plug'n'Play the packages are the
 * archives of `.yarn/cache/` and the folders of `.yarn/unplugged/`.
 */
const TEST_INPUT_DIRS = /(^|\/)(node_modules|\.venv|venv|\.tox|\.nox|\.yarn\/(cache|unplugged))\//;

/**
 * Modules `python -m pytest` (or `-m unittest`, and the other modules Gatehouse lets run
 * that way: `mypy`, `ruff`, `flake8`, `pylint`, `pyright`, `pip`, runners.ts) imports from the
 * directory it starts in before the installed ones, and the start-up hooks Python imports
 * wherever a virtualenv or PYTHONPATH puts a project folder on its path. Any folder, since
 * the run may start in any; `unittest` at the root only (a `tests/unittest/` folder is common
 * and not a shadow).
 */
const PYTHON_RUN_MODULES = [
  // `unittest` is matched at the root only (below); `pip` runs as `python -m pip` too.
  ...PYTHON_RUNNER_MODULE_NAMES.filter((name) => name !== 'unittest'),
  'pip',
].join('|');
// pytest's own code lives in `_pytest/`, imported by `pytest` alike.
const PYTHON_SHADOWS = new RegExp(
  `(^|/)((${PYTHON_RUN_MODULES})\\.py|(_pytest|${PYTHON_RUN_MODULES})/.+|sitecustomize\\.py|usercustomize\\.py)$|^unittest(\\.py|/.+)$`,
);
/** `python -m module` (also `python3.12 -B -m`): Python imports the module from the folder first. */
const PYTHON_MODULE_RUN = /(^|[\s;&|(`])(python[0-9.]*|pypy3?)\s+(-[A-Za-z]+\s+)*-m\s/;

/**
 * Git's own files that run code on git commands: hooks (`post-checkout` on checkout, the
 * fsmonitor on `git status`), its config (`core.fsmonitor`, `diff.external`, aliases) and
 * the hook managers that install hooks on commit.
 */
const GIT_INPUT = /^\.git\/(config|hooks\/.+)$|^\.husky\/.+|(^|\/)\.pre-commit-config\.yaml$/;

/**
 * Client-side git hook names: a file so named anywhere in the project may be a hook, since
 * `core.hooksPath` can point git at any folder (`git config core.hooksPath .githooks`).
 */
const GIT_HOOK_NAMES = new Set([
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'reference-transaction',
  'pre-auto-gc',
  'post-rewrite',
  'post-index-change',
  'fsmonitor-watchman',
  'sendemail-validate',
]);
/** A git config file a project's `.git/config` may `[include]`. */
const GIT_CONFIG_FILE = /(^|\/)\.?gitconfig$|\.gitconfig$/;

/** Which runs a project file decides, if any (path relative to the project root). */
export function runInputGroup(relPath: string): Group | undefined {
  if (GIT_INPUT.test(relPath)) return 'git';
  const base = relPath.slice(relPath.lastIndexOf('/') + 1);
  if (GIT_HOOK_NAMES.has(base) || GIT_CONFIG_FILE.test(relPath)) return 'git';
  if (TEST_INPUT_DIRS.test(relPath) || PYTHON_SHADOWS.test(relPath)) return 'tests';
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  if (TEST_INPUT_NAMES.has(name) || TEST_INPUT_NAMES.has(relPath)) return 'tests';
  if (relPath.endsWith('.cargo/config.toml') || relPath.endsWith('.cargo/config')) return 'tests';
  return TEST_INPUT_PATTERN.test(name) ? 'tests' : undefined;
}

/** Actions of git sub-commands (bash-actions.ts) that do not say `git` in their name. */
const GIT_ACTIONS = new Set(['create_branch', 'create_worktree', 'read_git_history']);
/** `git` as a program in a shell command (not `.gitignore`, not `github.com`). */
const RUNS_GIT = /(^|[\s;&|(`$])git(\s|$)/;

/**
 * Which group's changes a run of this action executes. Test and build runners run the
 * project's test inputs (run_command and install_package ask anyway, but a rule may let
 * `npm run build` or `npm install` through, and install scripts run); every git command runs
 * git's hooks and config, and so does a call whose command runs git.
 */
export function runsGroup(a: { action: string; command?: string | undefined }): Group | undefined {
  if (a.action.startsWith('git_') || GIT_ACTIONS.has(a.action)) return 'git';
  if (a.action === 'run_tests' || a.action === 'run_command' || a.action === 'install_package')
    return 'tests';
  // `python3 -m pip list` reads, but runs a pip.py of the folder it starts in.
  if (a.command !== undefined && PYTHON_MODULE_RUN.test(a.command)) return 'tests';
  if (a.command !== undefined && RUNS_GIT.test(a.command)) return 'git';
  return undefined;
}

/**
 * Files a command writes without naming them: `git config …` writes `.git/config`,
 * `npm pkg set` and `npm set-script` write `package.json`.
 */
export function impliedWrites(a: { action: string; target?: string | undefined }): string[] {
  const t = a.target ?? '';
  if (/^git config\b/.test(t) || (a.action === 'modify_config' && /^git\b/.test(t)))
    return ['.git/config'];
  if (/^(npm|pnpm|yarn) (pkg|set-script)\b/.test(t)) return ['package.json'];
  return [];
}

/** Rules of the requests a changed run input sends to a person: `watch:tests`, `watch:git`. */
export const WATCH_RULE_PREFIX = 'watch:';
export const isWatchRule = (rule: string): boolean => rule.startsWith(WATCH_RULE_PREFIX);
export const watchGroupOf = (rule: string): Group | undefined => {
  const g = rule.slice(WATCH_RULE_PREFIX.length);
  return isWatchRule(rule) && (g === 'tests' || g === 'git') ? g : undefined;
};

/** Actions that write the paths they name. */
export const WRITING_ACTIONS: ReadonlySet<string> = new Set([
  'write_file',
  'edit_file',
  'delete_files',
  'move_files',
  'modify_config',
]);
