import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { preToolUse, runClaudeHook } from '../../support/claude-hook';
import { TestDaemon } from '../../support/daemon';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    stdio: 'ignore',
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Dev',
      GIT_AUTHOR_EMAIL: 'dev@example.com',
      GIT_COMMITTER_NAME: 'Dev',
      GIT_COMMITTER_EMAIL: 'dev@example.com',
    },
  });

/**
 * Git reaching outside the project: a repository elsewhere applies its own
 * configuration, so git pointed at it (`-C`, a `cd` before it, a worktree checked out there)
 * is not a harmless read. Real hook processes against a real daemon with default settings;
 * every call the hook allows is performed, and the other repository's `core.fsmonitor`
 * shows whether git ran there.
 */
describe('git pointed outside the project asks (real hook, real daemon)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-git-elsewhere-')));
  const project = join(dir, 'project');
  const elsewhere = join(dir, 'elsewhere');
  const marker = join(dir, 'fsmonitor-ran');

  beforeAll(async () => {
    git(dir, 'init', '-q', '-b', 'main', project);
    git(project, 'commit', '-q', '--allow-empty', '-m', 'first');
    mkdirSync(join(project, 'sub'));
    // Planted by someone else: a repository whose status runs a command.
    git(dir, 'init', '-q', elsewhere);
    writeFileSync(join(elsewhere, 'README.md'), 'elsewhere\n');
    git(elsewhere, 'add', 'README.md');
    git(elsewhere, 'commit', '-q', '-m', 'first');
    git(elsewhere, 'config', 'core.fsmonitor', `touch ${marker}; false`);
    // A folder inside the project that is a link to it.
    symlinkSync(elsewhere, join(project, 'vendor-link'));
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
  });
  afterAll(async () => {
    admin?.close();
    await d?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The hook's decision on a Bash call in the project; an allowed call is performed. */
  async function run(command: string): Promise<string | undefined> {
    const r = await runClaudeHook(
      { ...d.env, GATEHOUSE_HOOK_WAIT_MS: '100', GATEHOUSE_HOOK_FALLBACK: 'deny' },
      preToolUse('Bash', { command }, { cwd: project, session: 'git-elsewhere' }),
    );
    if (r.decision === 'allow')
      try {
        execFileSync('bash', ['-c', command], { cwd: project, stdio: 'ignore', timeout: 30_000 });
      } catch {
        // Its effect is what counts.
      }
    return r.decision;
  }

  it.each([
    'git -C ../elsewhere status',
    'git -C sub -C ../../elsewhere status',
    `git -C ${elsewhere} status --short`,
    'git -C $PWD/../elsewhere status',
    'cd ../elsewhere && git status',
    `cd ${elsewhere}; git status`,
    'cd vendor-link && git status',
    'git -C vendor-link status',
    'pushd ../elsewhere >/dev/null && git status',
    // Wrapped, git -C is judged as the bare form (the link followed), not by its text alone.
    'env git -C vendor-link status',
    'command git -C vendor-link status',
    'time git -C vendor-link status',
    'nice -n 5 git -C vendor-link status',
    'nohup git -C vendor-link status',
    'timeout 5 git -C vendor-link status',
    'stdbuf -oL git -C vendor-link status',
    'env LC_ALL=C git -C sub -C ../vendor-link status',
  ])('%s does not run the other repository unasked', async (command) => {
    const decision = await run(command);
    expect({ decision, ran: existsSync(marker) }).toEqual({ decision: 'deny', ran: false });
  });

  it('a worktree checked out outside the project asks; one inside stays auto', async () => {
    expect(await run('git worktree add -q ../checkout-out')).toBe('deny');
    expect(existsSync(join(dir, 'checkout-out'))).toBe(false);
    // A new branch at HEAD: the project's own files (without -b, a branch named after the
    // folder would be checked out if one exists: that asks, unnamed-writes-hook.test.ts).
    expect(await run('git worktree add -q -b review .worktrees/review')).toBe('allow');
    expect(existsSync(join(project, '.worktrees/review'))).toBe(true);
  });

  it('git inside the project stays auto and runs (the other repository untouched)', async () => {
    for (const command of [
      'git status',
      'git -C sub status',
      'cd sub && git log -1 --oneline',
      'env LC_ALL=C git -C sub status',
      'timeout 5 git -C sub status',
    ])
      expect(await run(command), command).toBe('allow');
    expect(existsSync(marker)).toBe(false);
    // Calibration: git run in the other repository does run its fsmonitor.
    execFileSync('git', ['status'], { cwd: elsewhere, stdio: 'ignore' });
    expect(existsSync(marker)).toBe(true);
  });
});
