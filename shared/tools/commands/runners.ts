import { checkArgs, clip, options, type Looseness, type Options } from './options';

/**
 * Options of test runners and linters that only choose what to check and how to report
 * it. Options that load modules, read another configuration, write files or change the
 * interpreter are not here (some are named in {@link RUNNER_DANGER}), so they ask.
 */
const RUNNER_OPTIONS: Options = options({
  flags:
    '-q -v -x -s -l -h -u --quiet --verbose --exitfirst --disable-warnings --lf --last-failed --ff --failed-first --nf --new-first --sw --stepwise --co --collect-only --no-header --no-summary --showlocals --strict-markers --run --watch --no-watch --passWithNoTests --silent --ci --coverage --bail --changed --onlyChanged --noEmit --pretty --listFiles --strict --fix --check --diff --quiet --color --no-color --colors --no-colors --fail-fast --no-fail-fast --release --all --workspace --lib --bins --tests --doc --all-targets --all-features --no-default-features --locked --frozen --offline --nocapture --ignored --include-ignored --exact --show-output --headed --list --recursive --cache --no-cache --max-warnings=0 --report-unused-disable-directives --no-eslintrc --noErrorTruncation --skipLibCheck --incremental --ignore-missing-imports --show-error-codes --no-error-summary --statistics --count --show-source --errors-only --json --verbose --dry-run --diff --no-fix --unsafe-fixes --show-fixes --version --help --update-snapshots -u --runInBand -i --detectOpenHandles --forceExit --verbose --no-coverage --no-capture --tb=short --pyargs --durations-min --strict-config --import-mode --debug --allowOnly --reporter=verbose --reporter=dot --reporter=default --reporter=basic --reporter=json --reporter=tap --threads=false --isolate=false --passWithNoTests',
  values:
    '-k -m -n -t -p -j -r --watch --maxfail --tb --durations --timeout --testNamePattern --testPathPattern --testPathIgnorePatterns --shard --maxWorkers --project --workspace --grep --grep-invert --retries --max-warnings --ext --ignore-pattern --features --package --target --test --bin --example --bench --test-threads --skip --select --ignore --extend-select --line-length --target-version --format --max-line-length --extend-ignore --exclude --include --severity --shell --lib --module --moduleResolution --pool --bail --seed --dist --numprocesses --hook-timeout --test-timeout --testTimeout --browser --cov --cov-report',
  numeric: true,
  danger: {
    '-c': 'a test runner -c reads another configuration, which can load code',
    '--config': 'a test runner --config reads another configuration, which can load code',
    '--configFile': 'a test runner --config reads another configuration',
    '--rootdir': 'pytest --rootdir changes which configuration and conftest.py load',
    '-o': 'a -o option overrides configuration (pytest addopts) or writes a file',
    '--override-ini': 'pytest -o overrides configuration (addopts can load plugins)',
    '--basetemp': 'pytest --basetemp deletes and rewrites that directory',
    '--junitxml': 'a test runner --junitxml writes a file',
    '--junit-xml': 'a test runner --junitxml writes a file',
    '--outputFile': 'a test runner --outputFile writes a file',
    '--output-file': 'a linter --output-file writes a file',
    '--require': 'a test runner --require loads a module',
    '--import': 'a test runner --import loads a module',
    '--loader': 'a test runner --loader loads a module',
    '--setupFiles': 'a test runner --setupFiles loads a module',
    '--globalSetup': 'a test runner --globalSetup loads a module',
    '--testRunner': 'jest --testRunner loads a module',
    '--transform': 'jest --transform loads a module',
    '--resolver': 'jest --resolver loads a module',
    '--preset': 'jest --preset loads a configuration',
    '--plugin': 'a linter --plugin loads a module',
    '--rulesdir': 'eslint --rulesdir loads code',
    '--resolve-plugins-relative-to':
      'eslint --resolve-plugins-relative-to chooses which plugins load',
    '--load-plugins': 'pylint --load-plugins loads code',
    '--rcfile': 'pylint --rcfile reads another configuration (plugins)',
    '--config-file': 'a checker --config-file reads another configuration (plugins)',
    '--outFile': 'tsc --outFile writes a file',
    '--out': 'tsc --out writes a file',
    '--declarationDir': 'tsc --declarationDir writes files',
    '--tsBuildInfoFile': 'tsc --tsBuildInfoFile writes a file',
    '--generateTrace': 'tsc --generateTrace writes files',
    '-b': 'tsc -b builds and writes output',
    '--build': 'tsc --build writes output',
    '--write': 'a formatter --write rewrites files',
  },
});

/** Test runners and checkers, recognised only by their bare name (never `./pytest`). */
export const TEST_RUNNERS: ReadonlySet<string> = new Set([
  'pytest',
  'py.test',
  'jest',
  'vitest',
  'mocha',
  'ava',
  'tap',
  'rspec',
  'phpunit',
  'tox',
  'nox',
  'ctest',
  'karma',
  'playwright',
  'cypress',
  'tsc',
  'eslint',
  'ruff',
  'mypy',
  'pyright',
  'flake8',
  'pylint',
  'shellcheck',
  'golangci-lint',
]);

/**
 * Why a test runner's or checker's arguments are not proven harmless. Sub-command words
 * (`vitest run`, `ruff check`, `playwright test`) are operands; `--fix` and `--write`
 * rewrite files and are named by the mapping, not here.
 */
export function runnerProblem(
  name: string,
  args: readonly string[],
  loose?: Looseness,
): string | undefined {
  const checked = checkArgs(name, args, RUNNER_OPTIONS, loose);
  if (checked.unproven) return checked.unproven;
  if (/^(pytest|py\.test)$/.test(name) && checked.seen.includes('-p'))
    return 'pytest -p loads a plugin module';
  if (name === 'ruff' && checked.operands[0] === 'server') return 'ruff server keeps running';
  if (name === 'tox' || name === 'nox')
    if (checked.seen.length) return `${name} options are not known to be harmless`;
  return undefined;
}

/** `python -m <module>` modules that are test runners or checkers. */
export const PYTHON_RUNNER_MODULE_NAMES = [
  'pytest',
  'unittest',
  'mypy',
  'ruff',
  'flake8',
  'pylint',
  'pyright',
] as const;
export const PYTHON_RUNNER_MODULES = new RegExp(`^(${PYTHON_RUNNER_MODULE_NAMES.join('|')})$`);

/** make's options that only change output, parallelism or what counts as up to date. */
const MAKE_OPTIONS = options({
  flags:
    '-k -s -B -w -n -q -i -r -R --silent --quiet --keep-going --always-make --no-print-directory --print-directory --dry-run --question --ignore-errors --no-builtin-rules --no-builtin-variables --warn-undefined-variables',
  values: '-j -l -O --jobs --load-average --output-sync',
  danger: {
    '-E': 'make --eval defines rules that run commands',
    '--eval': 'make --eval defines rules that run commands',
    '-f': 'make -f reads another makefile',
    '--file': 'make -f reads another makefile',
    '--makefile': 'make -f reads another makefile',
    '-C': 'make -C runs the makefile of another directory',
    '--directory': 'make -C runs the makefile of another directory',
    '-I': 'make -I includes makefiles from another directory',
    '--include-dir': 'make -I includes makefiles from another directory',
    '-e': 'make -e lets the environment override the makefile',
    '--environment-overrides': 'make -e lets the environment override the makefile',
  },
});

/** Why a task runner call is not proven harmless (`make VAR=…` can set `SHELL`). */
export function taskRunnerProblem(
  name: string,
  args: readonly string[],
  loose?: Looseness,
): string | undefined {
  if (name !== 'make') {
    const option = args.find((a) => a.startsWith('-'));
    return option ? `${name} ${clip(option)} is not an option known to be harmless` : undefined;
  }
  const checked = checkArgs('make', args, MAKE_OPTIONS, loose);
  if (checked.unproven) return checked.unproven;
  const assignment = checked.operands.find((o) => o.includes('='));
  return assignment
    ? `make ${clip(assignment)} overrides a make variable (SHELL, MAKEFLAGS …), which can run commands`
    : undefined;
}

/** cargo/go global options that change what runs; their test and check sub-commands' options. */
export function toolchainProblem(
  name: string,
  args: readonly string[],
  loose?: Looseness,
): string | undefined {
  if (name === 'cargo') {
    const danger = args.find((a) => /^(--config|-Z|--manifest-path)(=|$)|^\+/.test(a));
    if (danger) return `cargo ${clip(danger)} changes the configuration or toolchain that runs`;
  }
  const sub = args.findIndex((a) => !a.startsWith('-'));
  if (sub < 0) return undefined;
  if (!/^(test|check|clippy|vet|fmt-check)$/.test(args[sub]!)) return undefined;
  const rest = args.slice(sub + 1);
  if (name === 'go') return goTestProblem(args[sub]!, rest, loose && ((i) => loose(sub + 1 + i)));
  return checkArgs(
    `${name} ${args[sub]}`,
    rest,
    RUNNER_OPTIONS,
    loose && ((i) => loose(sub + 1 + i)),
  ).unproven;
}

/** `go test`/`go vet` options; go writes long options with one dash (`-run`, `-count=1`). */
const GO_TEST_OPTIONS = options({
  flags: '--v --race --short --json --failfast --benchmem --cover --vet=off --x --n',
  values:
    '--run --count --timeout --bench --benchtime --p --tags --parallel --cpu --skip --shuffle --covermode --coverpkg --list --mod',
});

function goTestProblem(
  sub: string,
  args: readonly string[],
  loose?: Looseness,
): string | undefined {
  const long = args.map((a) => (/^-[a-z]/.test(a) ? `-${a}` : a));
  const checked = checkArgs(`go ${sub}`, long, GO_TEST_OPTIONS, loose);
  return checked.unproven?.replace(/ --(\w)/, ' -$1');
}
