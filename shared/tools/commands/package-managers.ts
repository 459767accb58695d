import type { ActionSpec } from '../action-spec';
import { clip, own, type Looseness } from './options';
import { runnerProblem, TEST_RUNNERS } from './runners';

/**
 * Options of npm, pnpm, yarn and bun that change only output or which workspace; any other
 * (`--prefix`, `--userconfig`, `--script-shell`, `--registry`, `--node-options` …) can make a
 * harmless sub-command run code or reach another server, and asks.
 */
const PM_SAFE_OPTION =
  /^(-s|-l|-a|-g|-w|-D|-P|-q|--silent|--quiet|--json|--long|--parseable|--all|--global|--depth(=\d+)?|--if-present|--workspaces|--workspace(=[\w@/.-]+)?|-r|--recursive|--filter(=[\w@/.*-]+)?|--prod|--production|--dev|--omit(=\w+)?|--include(=\w+)?|--color|--no-color|--loglevel(=\w+)?|--no-audit|--no-fund|--offline|--prefer-offline|--frozen-lockfile|--immutable|--version|-v|--help|-h|--no-progress|--reporter(=\w+)?|--stream|--fail-if-no-match|--no-bail)$/;
const PM_DANGER: Readonly<Record<string, string>> = {
  '--prefix': 'npm --prefix runs another folder’s package scripts',
  '-C': 'npm -C runs another folder’s package scripts',
  '--dir': 'pnpm --dir runs another folder’s package scripts',
  '--cwd': 'yarn --cwd runs another folder’s package scripts',
  '--userconfig': 'npm --userconfig reads another configuration (script-shell, registry)',
  '--globalconfig': 'npm --globalconfig reads another configuration',
  '--script-shell': 'npm --script-shell chooses the program scripts run with',
  '--shell': 'npm --shell chooses the program that runs',
  '--node-options': 'npm --node-options can load code into node',
  '--registry': 'npm --registry reaches another server',
  '--package': 'npx --package installs and runs a package',
  '-p': 'npx -p installs and runs a package',
  '--call': 'npm exec --call runs a command',
  '-c': 'npm exec -c runs a command',
  '--yes': 'npx --yes installs a package without asking',
  '-y': 'npx -y installs a package without asking',
};

const sub = (name: string, args: readonly string[]): string =>
  args.find((a) => !a.startsWith('-')) ?? (name === 'yarn' || name === 'bun' ? 'install' : '');

const INSTALL =
  /^(install|i|add|ci|update|upgrade|up|uninstall|remove|rm|un|reinstall|link|sync|dedupe|prune|rebuild)$/;

/**
 * The person's own config files a package manager's `config get`/`list` prints, registry
 * tokens included: pnpm and yarn print `//registry.npmjs.org/:_authToken` from `~/.npmrc` as
 * written (npm prints "(protected)"), and their own files hold tokens too (`npmAuthToken`).
 * The project's own (`.npmrc`, `.yarnrc.yml` where they run) are printed too: they count as
 * secrets when a token is written in them.
 */
const USER_CONFIGS: Readonly<Record<string, readonly string[]>> = {
  pnpm: ['~/.npmrc', '~/.config/pnpm/rc', '.npmrc'],
  yarn: ['~/.npmrc', '~/.yarnrc', '~/.yarnrc.yml', '.npmrc', '.yarnrc.yml'],
  bun: ['~/.npmrc', '~/.bunfig.toml', '.npmrc'],
};

/** A `config get`/`list`: a read of the person's config files where they print them. */
function configRead(name: string): ActionSpec {
  const paths = USER_CONFIGS[name];
  return paths
    ? { action: 'read_file', target: `${name} config`, paths: [...paths] }
    : { action: 'read_file', target: `${name} config` };
}

/** The action an npm/pnpm/yarn/bun call stands for. */
export function jsPackageManagerAction(name: string, args: readonly string[]): ActionSpec {
  const ops = args.filter((a) => !a.startsWith('-'));
  const s = sub(name, args);
  const script = s === 'run' || s === 'run-script' ? (ops[1] ?? '') : s;
  const target = `${name} ${ops.join(' ')}`.trim();
  if (INSTALL.test(s)) return { action: 'install_package', target };
  if (s === 'audit' && ops[1] === 'fix') return { action: 'install_package', target };
  if (s === 'publish' || /deploy|release|publish/.test(script)) return { action: 'deploy', target };
  if (s === 'config' || s === 'set')
    return /^(get|list|ls)$/.test(ops[1] ?? '') || (s === 'config' && !ops[1])
      ? configRead(name)
      : { action: 'modify_config', target };
  if (
    /^(test|t|tst)$/.test(script) ||
    /^(test|lint|typecheck|check|type-check|tsc|vitest|jest)(:|$)/.test(script)
  )
    return { action: 'run_tests', target };
  if (s === 'exec' || s === 'dlx' || s === 'x') return npxAction(args.slice(args.indexOf(s) + 1));
  if (
    /^(ls|list|outdated|view|info|show|v|why|explain|audit)$/.test(s) ||
    (!s && args.some((a) => /^(--version|-v)$/.test(a)))
  )
    return { action: 'read_file', target: `${name} ${s || '--version'}` };
  return { action: 'run_command', target };
}

/** Why an npm/pnpm/yarn/bun call is not proven harmless. */
export function jsPackageManagerProblem(
  name: string,
  args: readonly string[],
  loose?: Looseness,
): string | undefined {
  const dd = args.indexOf('--');
  const mine = dd < 0 ? args : args.slice(0, dd);
  for (let i = 0; i < mine.length; i++) {
    const a = mine[i]!;
    if (loose?.(i)) return `${clip(a)} may expand to an option of ${name}`;
    const key = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    const danger = own(PM_DANGER, key);
    if (danger) return danger;
  }
  const action = jsPackageManagerAction(name, args).action;
  if (action === 'run_tests' && dd >= 0) {
    // `npm test -- --config=/tmp/x.js`: what follows `--` goes to the test runner.
    return runnerProblem(
      `${name} test --`,
      args.slice(dd + 1),
      loose && ((i) => loose(dd + 1 + i)),
    );
  }
  if (action !== 'read_file' && action !== 'run_tests') return undefined;
  const s = sub(name, args);
  const unknown = mine.find((a) => a.startsWith('-') && !PM_SAFE_OPTION.test(a));
  if (unknown) return `${name} ${clip(unknown)} is not an option known to be harmless`;
  if (s === 'exec' || s === 'dlx' || s === 'x') return npxProblem(args.slice(args.indexOf(s) + 1));
  return undefined;
}

/** npx/bunx/pnpx: a test runner by its bare name; anything else runs a package's code. */
export function npxAction(args: readonly string[]): ActionSpec {
  const tool = args.find((a) => !a.startsWith('-')) ?? '';
  const rest = args.slice(args.indexOf(tool) + 1);
  if (TEST_RUNNERS.has(tool))
    return rest.includes('--fix')
      ? { action: 'edit_file', target: `npx ${tool}` }
      : { action: 'run_tests', target: tool };
  if (tool === 'prettier')
    return rest.some((a) => /^(--write|-w)$/.test(a))
      ? { action: 'edit_file', target: 'npx prettier' }
      : { action: 'run_tests', target: tool };
  return { action: 'run_command', target: `npx ${tool}`.trim() };
}

/** Why an npx call is not proven harmless: npx's own options, then the runner's. */
export function npxProblem(args: readonly string[], loose?: Looseness): string | undefined {
  const at = args.findIndex((a) => !a.startsWith('-'));
  for (const a of at < 0 ? args : args.slice(0, at)) {
    const key = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    const danger = own(PM_DANGER, key);
    if (danger) return danger;
    if (!/^(--no-install|--no|--offline|--quiet|-q)$/.test(a))
      return `npx ${clip(a)} is not an option known to be harmless`;
  }
  if (at < 0) return undefined;
  const tool = args[at]!;
  if (loose?.(at)) return `${clip(tool)} may expand to any program`;
  const rest = args.slice(at + 1);
  const sub = loose && ((i: number) => loose(at + 1 + i));
  if (TEST_RUNNERS.has(tool)) return runnerProblem(tool, rest, sub);
  if (tool === 'prettier') return prettierProblem(rest);
  return undefined;
}

/** prettier: `--plugin` and `--config` load code; everything else only formats. */
export function prettierProblem(args: readonly string[]): string | undefined {
  const bad = args.find((a) =>
    /^--(plugin|config|plugin-search-dir|config-precedence)(=|$)/.test(a),
  );
  return bad ? `prettier ${clip(bad)} loads code or another configuration` : undefined;
}

/** pip/uv/poetry/pipenv: the action of a call. */
export function pythonPmAction(name: string, args: readonly string[]): ActionSpec {
  const ops = args.filter((a) => !a.startsWith('-'));
  const s = name === 'uv' && ops[0] === 'pip' ? (ops[1] ?? '') : (ops[0] ?? '');
  if (/^(install|add|remove|uninstall|sync|update|upgrade|lock|download|wheel)$/.test(s))
    return { action: 'install_package', target: `${name} ${ops.join(' ')}` };
  if (
    name === 'uv' &&
    s === 'run' &&
    /^(pytest|mypy|ruff)$/.test(ops[1] ?? '') &&
    args[0] === 'run'
  )
    return { action: 'run_tests', target: `uv run ${ops[1]}` };
  if (/^(list|show|freeze|check)$/.test(s) && !args.some((a) => a.startsWith('-')))
    return { action: 'read_file', target: `${name} ${s}` };
  return { action: 'run_command', target: `${name} ${s}`.trim() };
}

/** `uv run pytest …`: the runner's arguments are checked like a bare runner's. */
export function pythonPmProblem(name: string, args: readonly string[]): string | undefined {
  if (name === 'uv' && args[0] === 'run' && TEST_RUNNERS.has(args[1] ?? ''))
    return runnerProblem(args[1]!, args.slice(2));
  return undefined;
}
