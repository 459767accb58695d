import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { preToolUse, runClaudeHook, type PreToolAnswer } from '../../support/claude-hook';
import { allowWritesIn } from '../../support/write-rules';
import { TestDaemon, waitForPending } from '../../support/daemon';

/**
 * One file that decides what a later command runs, and the runner command that runs it.
 * `performs`: the runner is installed here, so every run Gatehouse lets through is really
 * performed and the file's code shows it ran by creating `pwned`; the others (yarn, bun,
 * eslint through npx, which would reach the registry) are only classified.
 */
interface RunInputCase {
  file: string;
  content: string;
  executable?: boolean;
  run: string;
  performs: boolean;
}

const PWNED = 'pwned';

const CASES: RunInputCase[] = [
  // npm passes node-options to every script it runs as NODE_OPTIONS.
  {
    file: '.npmrc',
    content: 'node-options=--require=./evil.cjs\n',
    run: 'npm test',
    performs: true,
  },
  // What `npx jest` runs when the project has it.
  {
    file: 'node_modules/.bin/jest',
    content: `#!/bin/sh\ntouch ${PWNED}\n`,
    executable: true,
    run: 'npx --offline jest',
    performs: true,
  },
  // What a bare `pytest` is in an activated virtualenv (performed with .venv/bin first on PATH).
  {
    file: '.venv/bin/pytest',
    content: `#!/bin/sh\ntouch ${PWNED}\n`,
    executable: true,
    run: 'pytest -q',
    performs: true,
  },
  // `python -m` imports from the directory it starts in before the installed pytest.
  {
    file: 'pytest.py',
    content: `open('${PWNED}', 'w')\n`,
    run: 'python3 -m pytest',
    performs: true,
  },
  // The same for the other modules Gatehouse lets `python -m` run, a read like `pip list` too.
  {
    file: 'mypy.py',
    content: `open('${PWNED}', 'w')\n`,
    run: 'python3 -m mypy src',
    performs: true,
  },
  {
    file: 'pip/__init__.py',
    content: `open('${PWNED}', 'w')\n`,
    run: 'python3 -m pip list',
    performs: true,
  },
  {
    file: 'conftest.py',
    content: `open('${PWNED}', 'w')\n`,
    run: 'python3 -m pytest -q',
    performs: true,
  },
  {
    file: 'pytest.ini',
    content: '[pytest]\naddopts = -p evil_plugin\n',
    run: 'pytest',
    performs: false,
  },
  {
    file: 'sitecustomize.py',
    content: `open('${PWNED}', 'w')\n`,
    run: 'python3 -m pytest',
    performs: false,
  },
  { file: '.yarnrc.yml', content: 'yarnPath: ./evil.cjs\n', run: 'yarn test', performs: false },
  // Checkers whose config loads code (not installed here: classified only).
  {
    file: '.pylintrc',
    content: `[MAIN]\ninit-hook='open("${PWNED}", "w")'\n`,
    run: 'pylint src',
    performs: false,
  },
  {
    file: 'mypy.ini',
    content: '[mypy]\nplugins = ./evil_plugin.py\n',
    run: 'mypy src',
    performs: false,
  },
  {
    file: 'bunfig.toml',
    content: '[test]\npreload = ["./evil.cjs"]\n',
    run: 'bun test',
    performs: false,
  },
  {
    file: 'eslint.config.js',
    content: "require('./evil.cjs');\nmodule.exports = [];\n",
    run: 'npx eslint .',
    performs: false,
  },
  {
    file: 'prettier.config.cjs',
    content: "require('./evil.cjs');\nmodule.exports = {};\n",
    run: 'npx prettier --check .',
    performs: false,
  },
  {
    file: 'vitest.config.mjs',
    content: "import './evil.cjs';\nexport default {};\n",
    run: 'npx vitest run',
    performs: false,
  },
];

/**
 * "What runs when tests run", the files the first watch missed: where the person lets
 * writes inside the project pass, an agent that writes one of them gets the next run of the
 * runner asked once (and auto again after the person approves a run). Real hook processes
 * against a real daemon; the runs Gatehouse lets through are performed.
 */
describe('files that decide what a runner runs: a run after a rewrite asks once (real hook)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-watch-files-')));
  const pwned = join(project, PWNED);

  beforeAll(async () => {
    execFileSync('git', ['init', '-q', project]);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'app', version: '1.0.0', scripts: { test: 'node -e 0' } }),
    );
    // The code the configs name, there before the agent starts: only the config changes.
    writeFileSync(join(project, 'evil.cjs'), `require('fs').writeFileSync('${PWNED}', '');\n`);
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
    await allowWritesIn(d, project);
  });
  afterAll(async () => {
    admin?.close();
    await d?.stop();
    rmSync(project, { recursive: true, force: true });
  });

  /** Runs the hook; when it allows, performs the call as Claude Code would. */
  async function call(
    tool: 'Bash' | 'Write',
    input: Record<string, unknown>,
    o: { waitMs?: number; perform?: boolean } = {},
  ): Promise<PreToolAnswer> {
    const r = await runClaudeHook(
      {
        ...d.env,
        GATEHOUSE_HOOK_FALLBACK: 'deny',
        GATEHOUSE_HOOK_WAIT_MS: String(o.waitMs ?? 300),
      },
      preToolUse(tool, input, { cwd: project, session: 'watch-files' }),
    );
    if (r.decision !== 'allow' || o.perform === false) return r;
    if (tool === 'Write') {
      const file = input.file_path as string;
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, input.content as string);
    } else {
      try {
        execFileSync('bash', ['-c', input.command as string], {
          cwd: project,
          stdio: 'ignore',
          timeout: 60_000,
          // An activated virtualenv: a bare runner name is the project's own first.
          env: { ...process.env, PATH: `${join(project, '.venv/bin')}:${process.env.PATH}` },
        });
      } catch {
        // Its effect is what counts.
      }
    }
    return r;
  }

  /**
   * The agent's Write, let through by the write rule or, where the file is a protected location
   * (package-manager configs ask, critical), by a person who approves it: either way the write
   * was let through and is performed.
   */
  async function letWrite(input: { file_path: string; content: string }): Promise<void> {
    if ((await call('Write', input)).decision === 'allow') return;
    const running = call('Write', input, { waitMs: 20_000 });
    const pending = await waitForPending(admin, (r) => r.action !== 'run_tests');
    expect((await d.cli(['approve', pending.requestId])).code).toBe(0);
    expect((await running).decision).toBe('allow');
  }

  for (const c of CASES) {
    it(`${c.file} rewritten, then \`${c.run}\` asks once`, async () => {
      const run = { command: c.run };
      const perform = c.performs;
      // Before the change the runner is auto, and (where it runs here) harmless.
      expect((await call('Bash', run, { perform })).decision).toBe('allow');
      expect(existsSync(pwned)).toBe(false);

      const path = join(project, c.file);
      await letWrite({ file_path: path, content: c.content });
      if (c.executable) chmodSync(path, 0o755);

      const asked = await call('Bash', run, { perform });
      expect(asked.decision, `${c.run} after ${c.file} was let through`).toBe('deny');
      expect(existsSync(pwned)).toBe(false);
      const { requests } = await admin.call('requests.query', { status: ['timed_out'] });
      const filed = requests.find((r) => r.command === c.run);
      expect(filed).toMatchObject({ rule: 'watch:tests' });
      expect(filed!.ruleReason).toContain(`${c.file} changed since you last approved`);

      // The person approves a run: it runs what the file says now (the attack is real) …
      const running = call('Bash', run, { waitMs: 20_000, perform });
      const pending = await waitForPending(
        admin,
        (r) => r.command === c.run && r.rule === 'watch:tests',
      );
      expect((await d.cli(['approve', pending.requestId])).code).toBe(0);
      expect((await running).decision).toBe('allow');
      if (perform) expect(existsSync(pwned), `${c.file} did not run`).toBe(true);
      rmSync(pwned, { force: true });

      // … and the watch asked once: the next run is auto again.
      expect((await call('Bash', run, { perform: false })).decision).toBe('allow');
      // Taken away (by the test, not the agent) so that the cases after it start clean.
      rmSync(path, { force: true });
    });
  }

  /**
   * A folder the agent copies or moves into place brings its own package.json, Makefile or
   * conftest.py: the copy writes them without naming them (the source is read, as for
   * protected names), and the next run in the copy asks. Each copy and run is performed.
   */
  const KIT: Record<string, string> = {
    'package.json': JSON.stringify({
      name: 'kit',
      version: '1.0.0',
      scripts: { test: `node -e "require('fs').writeFileSync('${PWNED}','npm')"` },
    }),
    Makefile: `test:\n\ttouch ${PWNED}\n`,
    'conftest.py': `open('${PWNED}', 'w')\n`,
    'test_ok.py': 'def test_ok():\n    pass\n',
  };
  it.each([
    ['cp -r kit-a/ sub-a/', 'sub-a', 'cd sub-a && npm test'],
    ['cp -a kit-b sub-b', 'sub-b', 'cd sub-b && make test'],
    ['mv kit-c sub-c', 'sub-c', 'cd sub-c && python3 -m pytest -q'],
    ['cp -R kit-d/ sub-d', 'sub-d', 'cd sub-d && npm test'],
  ])('a folder copied in (%s), then a run in %s asks once', async (copy, sub, run) => {
    const kit = copy.match(/kit-[a-z]/)![0];
    mkdirSync(join(project, kit));
    for (const [name, text] of Object.entries(KIT)) writeFileSync(join(project, kit, name), text);
    const marker = join(project, sub, PWNED);
    expect((await call('Bash', { command: copy })).decision).toBe('allow');
    expect(existsSync(join(project, sub, 'package.json')), `${copy} did not copy`).toBe(true);

    const asked = await call('Bash', { command: run });
    expect(asked.decision, `${run} after ${copy} was let through`).toBe('deny');
    expect(existsSync(marker)).toBe(false);
    const { requests } = await admin.call('requests.query', { status: ['timed_out'] });
    const filed = requests.find((r) => r.command === run);
    expect(filed).toMatchObject({ rule: 'watch:tests' });
    expect(filed!.ruleReason).toContain(`${sub}/`);

    // The person approves: the copied file runs (the attack is real), once.
    const running = call('Bash', { command: run }, { waitMs: 20_000 });
    const pending = await waitForPending(admin, (r) => r.command === run);
    expect((await d.cli(['approve', pending.requestId])).code).toBe(0);
    expect((await running).decision).toBe('allow');
    expect(existsSync(marker), `${run} did not run the copied file`).toBe(true);
    rmSync(join(project, sub), { recursive: true, force: true });
    rmSync(join(project, kit), { recursive: true, force: true });
  });

  it('the copy and the run in one call ask too', async () => {
    mkdirSync(join(project, 'kit-e'));
    for (const [name, text] of Object.entries(KIT))
      writeFileSync(join(project, 'kit-e', name), text);
    const command = 'cp -r kit-e sub-e && cd sub-e && npm test';
    const r = await call('Bash', { command });
    expect(r.decision).toBe('deny');
    expect(existsSync(join(project, 'sub-e'))).toBe(false);
    const { requests } = await admin.call('requests.query', { status: ['timed_out'] });
    expect(requests.find((x) => x.command === command)).toMatchObject({ rule: 'watch:tests' });
    rmSync(join(project, 'kit-e'), { recursive: true, force: true });
  });

  it('a file the git config includes, whatever its name, counts as git config', async () => {
    // The person's own set-up: the repository's config includes a shared file in the project.
    execFileSync('git', ['config', 'include.path', '../tools/team.cfg'], { cwd: project });
    execFileSync('git', ['config', 'includeIf.gitdir:/.path', '../tools/cond.cfg'], {
      cwd: project,
    });
    const marker = join(project, 'fsmonitor-ran');
    const status = { command: 'git status --short' };
    expect((await call('Bash', status)).decision).toBe('allow');
    for (const file of ['tools/team.cfg', 'tools/cond.cfg']) {
      await letWrite({
        file_path: join(project, file),
        content: `[core]\n\tfsmonitor = "touch ${marker}; false"\n`,
      });
      const asked = await call('Bash', status);
      expect(asked.decision, `git status after ${file} was let through`).toBe('deny');
      expect(existsSync(marker)).toBe(false);
      const { requests } = await admin.call('requests.query', { action: 'git_status' });
      expect(requests[0]).toMatchObject({ rule: 'watch:git' });
      expect(requests[0]!.ruleReason).toContain(`${file} changed`);
      // The person approves: the included file's fsmonitor runs (the attack is real).
      const running = call('Bash', status, { waitMs: 20_000 });
      const pending = await waitForPending(admin, (r) => r.rule === 'watch:git');
      expect((await d.cli(['approve', pending.requestId])).code).toBe(0);
      expect((await running).decision).toBe('allow');
      expect(existsSync(marker), `${file} was not included`).toBe(true);
      rmSync(join(project, file));
      rmSync(marker);
    }
  });
});
