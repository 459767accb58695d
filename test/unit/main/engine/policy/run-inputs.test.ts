import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  impliedWrites,
  runInputGroup,
  runsGroup,
} from '../../../../../main/engine/policy/project-run-inputs';
import { EngineHarness } from '../../../../support/engine-harness';

describe('which files decide what a run runs', () => {
  it('test and build inputs, anywhere in the project', () => {
    for (const p of [
      'package.json',
      'packages/web/package.json',
      'Makefile',
      'GNUmakefile',
      'build/rules.mk',
      'justfile',
      'tox.ini',
      'noxfile.py',
      'tests/unit/conftest.py',
      'pytest.ini',
      'pyproject.toml',
      'setup.cfg',
      'setup.py',
      'vitest.config.ts',
      'vitest.config.mts',
      'jest.config.js',
      'playwright.config.ts',
      '.mocharc.yml',
      '.mocharc',
      'Cargo.toml',
      'crates/x/build.rs',
      '.cargo/config.toml',
      '.npmrc',
      'node_modules/.bin/vitest',
      // The second list: package-manager settings that run code on any command,
      // linters' and formatters' configs, what a bare runner name resolves to, and modules
      // `python -m pytest` imports from where it starts.
      '.yarnrc.yml',
      'bunfig.toml',
      'pnpm-workspace.yaml',
      'packages/web/.npmrc',
      'eslint.config.js',
      'eslint.config.mjs',
      '.eslintrc.cjs',
      'prettier.config.cjs',
      '.prettierrc.js',
      'web/jest.config.ts',
      'playwright.config.mjs',
      'vitest.config.cjs',
      'tests/conftest.py',
      'pytest.ini',
      '.venv/bin/pytest',
      '.venv/lib/python3.12/site-packages/evil.pth',
      'venv/bin/python',
      'node_modules/vitest/dist/index.js',
      // Under Yarn's Plug'n'Play the packages a test run loads.
      '.yarn/cache/vitest-npm-3.2.4-1a2b3c.zip',
      '.yarn/unplugged/esbuild-npm-0.25.0-abc/node_modules/esbuild/install.js',
      'pytest.py',
      'pytest/__main__.py',
      'mypy.py',
      '.pylintrc',
      'mypy.ini',
      '.flake8',
      '.golangci.yml',
      '.rspec',
      'phpunit.xml.dist',
      'pip/__init__.py',
      'tools/ruff.py',
      'sitecustomize.py',
      'usercustomize.py',
      'unittest.py',
    ])
      expect(runInputGroup(p), p).toBe('tests');
  });

  it("git's config and hooks, and the hook managers", () => {
    for (const p of [
      '.githooks/pre-commit',
      'tools/hooks/post-checkout',
      'config/.gitconfig',
      'ci/extra.gitconfig',
      '.git/config',
      '.git/hooks/post-checkout',
      '.husky/pre-commit',
      '.pre-commit-config.yaml',
    ])
      expect(runInputGroup(p), p).toBe('git');
  });

  it('not ordinary sources, docs or lock files', () => {
    for (const p of [
      'src/app.ts',
      'README.md',
      'package-lock.json',
      'tests/test_x.py',
      '.gitignore',
      'docs/Makefile.md',
      'tests/unittest/test_x.py',
      'src/pytest_helpers.py',
      'tsconfig.json',
      '.yarn/install-state.gz',
      'yarn.lock',
    ])
      expect(runInputGroup(p), p).toBeUndefined();
  });

  it('which runs run them', () => {
    expect(runsGroup({ action: 'run_tests' })).toBe('tests');
    expect(runsGroup({ action: 'install_package' })).toBe('tests');
    expect(runsGroup({ action: 'git_status' })).toBe('git');
    expect(runsGroup({ action: 'create_branch' })).toBe('git');
    expect(runsGroup({ action: 'list_files', command: 'ls && git status' })).toBe('git');
    expect(runsGroup({ action: 'read_file', command: 'cat .gitignore' })).toBeUndefined();
    expect(runsGroup({ action: 'read_file' })).toBeUndefined();
    // `python -m pip list` is a read, but imports pip from the folder it starts in.
    expect(runsGroup({ action: 'read_file', command: 'python3 -m pip list' })).toBe('tests');
    expect(runsGroup({ action: 'read_file', command: 'python3 -B -m pip show x' })).toBe('tests');
    expect(runsGroup({ action: 'read_file', command: 'python3 --version' })).toBeUndefined();
  });

  it('files a command writes without naming them', () => {
    expect(impliedWrites({ action: 'modify_config', target: 'git config' })).toEqual([
      '.git/config',
    ]);
    expect(impliedWrites({ action: 'run_command', target: 'npm pkg set scripts.test=x' })).toEqual([
      'package.json',
    ]);
    expect(impliedWrites({ action: 'run_command', target: 'npm ci' })).toEqual([]);
  });
});

describe('the watch in the engine (SDK agents, a restart, the person)', () => {
  let h: EngineHarness;
  beforeEach(() => (h = new EngineHarness()));
  afterEach(() => h.close());

  it('a write an SDK agent was allowed makes run_tests ask until a person approves a run', async () => {
    const project = h.project('');
    h.engine.admin.call('rules.add', {
      action: 'write_file',
      tier: 'auto',
      paths: ['**'],
      project,
    });
    h.work.flush();
    const a = h.hello('sdk', { project, sessionKey: 'k' });
    expect(h.engine.classify(a, { action: 'run_tests' }).tier).toBe('auto');
    const write = h.engine.request(a, {
      action: 'write_file',
      paths: [`${project}/package.json`],
      description: 'add a test script',
      urgency: 'normal',
      wait: false,
    });
    expect(write).toMatchObject({ status: 'approved' });
    h.work.flush();
    const held = h.engine.classify(a, { action: 'run_tests' });
    expect(held).toMatchObject({ tier: 'ask', rule: 'watch:tests', risk: 'high' });
    expect(held.reason).toMatch(
      /^package\.json changed since you last approved a test or build run/,
    );

    // The state is in the database: a restart keeps it.
    h.restart();
    const b = h.hello('sdk', { project, sessionKey: 'k' });
    expect(h.engine.classify(b, { action: 'run_tests' }).rule).toBe('watch:tests');
    const run = h.engine.request(b, {
      action: 'run_tests',
      description: 'npm test',
      urgency: 'normal',
      wait: false,
    });
    if (run instanceof Promise) throw new Error('did not wait');
    expect(run.status).toBe('queued');
    h.engine.admin.call('decide', { requestId: run.requestId, decision: 'approve', scope: 'once' });
    h.work.flush();
    expect(h.engine.classify(b, { action: 'run_tests' }).tier).toBe('auto');
    // A git command was never held: only git's own files decide what it runs.
    expect(h.engine.classify(b, { action: 'git_status' }).tier).toBe('auto');
  });

  it("a write a person approved counts too, and a change after the run's request still asks", () => {
    const project = h.project('');
    const a = h.hello('sdk', { project });
    const file = (path: string) =>
      h.engine.request(a, {
        action: 'write_file',
        paths: [`${project}/${path}`],
        description: `write ${path}`,
        urgency: 'normal',
        wait: false,
      });
    const w = file('Makefile');
    if (w instanceof Promise) throw new Error('did not wait');
    h.engine.admin.call('decide', { requestId: w.requestId, decision: 'approve', scope: 'once' });
    h.work.flush();
    const run = h.engine.request(a, {
      action: 'run_tests',
      description: 'make test',
      urgency: 'normal',
      wait: false,
    });
    if (run instanceof Promise) throw new Error('did not wait');
    h.clock.advance(1000);
    const later = file('conftest.py');
    if (later instanceof Promise) throw new Error('did not wait');
    h.engine.admin.call('decide', {
      requestId: later.requestId,
      decision: 'approve',
      scope: 'once',
    });
    h.engine.admin.call('decide', { requestId: run.requestId, decision: 'approve', scope: 'once' });
    h.work.flush();
    const next = h.engine.classify(a, { action: 'run_tests' });
    expect(next.rule).toBe('watch:tests');
    expect(next.reason).toMatch(/^conftest\.py changed/);
  });
});
