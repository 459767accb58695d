import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { preToolUse, runClaudeHook } from '../../support/claude-hook';
import { TestDaemon } from '../../support/daemon';
import { allowWritesIn } from '../../support/write-rules';

/**
 * Git config includes: the user's `~/.gitconfig` may `[include]` or `[includeIf]`
 * a file the agent can write (a team config kept in the project), and a config may set
 * `core.hooksPath` to a folder in the project. Writing either changes what the next
 * auto-allowed `git status` or `git checkout -b` runs, so both are protected locations.
 * The person lets writes in the project pass; real hook processes against a real daemon
 * whose HOME holds that `.gitconfig`; every allowed call is performed with the same HOME.
 */
describe('files git config includes are protected (real hook, real daemon)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-git-includes-')));
  const home = join(dir, 'home');
  const project = join(home, 'code/app');
  const marker = join(dir, 'pwned');
  const shellEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Dev',
    GIT_AUTHOR_EMAIL: 'dev@example.com',
    GIT_COMMITTER_NAME: 'Dev',
    GIT_COMMITTER_EMAIL: 'dev@example.com',
  };

  beforeAll(async () => {
    mkdirSync(join(project, 'tools'), { recursive: true });
    execFileSync('git', ['init', '-q', '-b', 'main', project], { env: shellEnv });
    execFileSync('git', ['commit', '-q', '--allow-empty', '-m', 'first'], {
      cwd: project,
      env: shellEnv,
    });
    // The person's own set-up: a team config kept in the project, and hooks in .githooks.
    writeFileSync(
      join(home, '.gitconfig'),
      `[includeIf "gitdir:${home}/code/"]\n\tpath = ${project}/tools/team.cfg\n`,
    );
    writeFileSync(join(project, 'tools/team.cfg'), '[core]\n\thooksPath = .githooks\n');
    mkdirSync(join(project, '.githooks'));
    d = await TestDaemon.start({ HOME: home, XDG_CONFIG_HOME: join(home, '.config') }, [
      '--no-dashboard',
    ]);
    admin = await d.admin();
    await allowWritesIn(d, project);
  });
  afterAll(async () => {
    admin?.close();
    await d?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The hook's decision on a call in the project; an allowed one is performed. */
  async function run(tool: 'Bash' | 'Write', input: Record<string, unknown>) {
    const r = await runClaudeHook(
      { ...d.env, GATEHOUSE_HOOK_WAIT_MS: '100', GATEHOUSE_HOOK_FALLBACK: 'deny' },
      preToolUse(tool, input, { cwd: project, session: 'git-includes' }),
    );
    if (r.decision === 'allow') {
      if (tool === 'Write') writeFileSync(input.file_path as string, input.content as string);
      else spawnSync('bash', ['-c', input.command as string], { cwd: project, env: shellEnv });
    }
    return r.decision;
  }

  it.each([
    [
      'a Bash rewrite of the included file',
      'Bash',
      { command: `printf '[core]\\n\\tfsmonitor = "touch ${marker}; false"\\n' > tools/team.cfg` },
    ],
    [
      'a Write of the included file',
      'Write',
      {
        file_path: join(project, 'tools/team.cfg'),
        content: `[alias]\n\tst = !touch ${marker}\n[core]\n\tfsmonitor = "touch ${marker}; false"\n`,
      },
    ],
    [
      'a Bash write in its core.hooksPath',
      'Bash',
      { command: `printf '#!/bin/sh\\ntouch ${marker}\\n' > .githooks/post-checkout` },
    ],
    [
      'a Write in its core.hooksPath',
      'Write',
      {
        file_path: join(project, '.githooks/post-checkout'),
        content: `#!/bin/sh\ntouch ${marker}\n`,
      },
    ],
  ] as const)('%s asks, and the next git command runs nothing planted', async (_, tool, input) => {
    expect(await run(tool, input)).toBe('deny');
    spawnSync('chmod', ['+x', join(project, '.githooks/post-checkout')]);
    expect(await run('Bash', { command: 'git status --short' })).toBe('allow');
    expect(await run('Bash', { command: 'git checkout -q -b next' })).toBe('allow');
    spawnSync('git', ['checkout', '-q', 'main'], { cwd: project, env: shellEnv });
    spawnSync('git', ['branch', '-q', '-D', 'next'], { cwd: project, env: shellEnv });
    expect(existsSync(marker)).toBe(false);
  });

  it('other files in the project stay auto to write (calibration of the rule)', async () => {
    expect(await run('Bash', { command: `printf 'x\\n' > tools/other.cfg` })).toBe('allow');
    expect(existsSync(join(project, 'tools/other.cfg'))).toBe(true);
  });

  it('calibration: git does run what the included file says (no hook)', () => {
    writeFileSync(
      join(project, 'tools/team.cfg'),
      `[core]\n\thooksPath = .githooks\n\tfsmonitor = "touch ${marker}; false"\n`,
    );
    spawnSync('git', ['status'], { cwd: project, env: shellEnv });
    expect(existsSync(marker)).toBe(true);
  });
});
