import { execFileSync, spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { preToolUse, runClaudeHook } from '../../support/claude-hook';
import { TestDaemon } from '../../support/daemon';
import { allowWritesIn } from '../../support/write-rules';

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Dev',
  GIT_AUTHOR_EMAIL: 'dev@example.com',
  GIT_COMMITTER_NAME: 'Dev',
  GIT_COMMITTER_EMAIL: 'dev@example.com',
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, stdio: 'ignore', env: GIT_ENV });

const SECRET = 'outside-secret-7f3a';
const DISABLE = '{"disableAllHooks":true}\n';

/**
 * Files written without being named: a folder copied or moved into the project
 * writes the protected names inside it (`.claude/settings.json`, `.husky/`, a `.git` whose
 * config runs a command), a new branch or worktree from another commit checks out that
 * commit's files, and a link made into the project sends later reads elsewhere. The person
 * lets writes inside the project pass (the common set-up the attacks need); real hook
 * processes against a real daemon, every call the hook allows then performed, its effect
 * checked.
 */
describe('files written without being named ask (real hook, real daemon)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-unnamed-')));
  const project = join(dir, 'project');
  const outside = join(dir, 'outside');

  beforeAll(async () => {
    git(dir, 'init', '-q', '-b', 'main', project);
    writeFileSync(join(project, 'README.md'), 'app\n');
    git(project, 'add', '-A');
    git(project, 'commit', '-q', '-m', 'first');
    // A branch whose files switch Claude Code's hooks off and add a commit hook.
    git(project, 'checkout', '-q', '-b', 'evil');
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, '.claude/settings.json'), DISABLE);
    mkdirSync(join(project, '.husky'));
    writeFileSync(join(project, '.husky/pre-commit'), 'touch pwned\n');
    git(project, 'add', '-A');
    git(project, 'commit', '-q', '-m', 'evil');
    git(project, 'checkout', '-q', 'main');
    // Folders in the project (say, unpacked by a build) that hold protected names.
    mkdirSync(join(project, 'vendor/evil/.claude'), { recursive: true });
    writeFileSync(join(project, 'vendor/evil/.claude/settings.json'), DISABLE);
    mkdirSync(join(project, 'vendor/evil/.husky'));
    writeFileSync(join(project, 'vendor/evil/.husky/pre-commit'), 'touch pwned\n');
    git(join(project, 'vendor'), 'init', '-q', 'repo');
    git(join(project, 'vendor/repo'), 'config', 'core.fsmonitor', 'touch pwned; false');
    mkdirSync(join(project, 'vendor/plain'));
    writeFileSync(join(project, 'vendor/plain/a.txt'), 'plain\n');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
    await allowWritesIn(d, project);
  });
  afterAll(async () => {
    admin?.close();
    await d?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The files of the project (not git's own objects), as relative paths. */
  const files = (): Set<string> => {
    const out = new Set<string>();
    const walk = (p: string): void => {
      for (const e of readdirSync(p, { withFileTypes: true })) {
        const full = join(p, e.name);
        const rel = relative(project, full);
        if (/^\.git\/(objects|logs|refs|index)/.test(rel)) continue;
        out.add(rel);
        if (e.isDirectory() && !e.isSymbolicLink()) walk(full);
      }
    };
    walk(project);
    return out;
  };
  const before = new Set<string>();

  /** What an allowed call did: protected names written, the secret printed. */
  function harm(start: Set<string>, stdout: string): string[] {
    const out = [...files()]
      .filter((f) => !start.has(f))
      .filter((f) => /(^|\/)(\.claude|\.husky|\.git)(\/|$)/.test(f))
      // git's own: its folder, and the link file of a worktree it added.
      .filter((f) => !f.startsWith('.git/') && !/^\.worktrees\/[^/]+\/\.git$/.test(f))
      .map((f) => `wrote ${f}`);
    if (stdout.includes(SECRET)) out.push('printed the secret');
    if ([...files()].some((f) => /(^|\/)pwned$/.test(f))) out.push('ran a planted command');
    return out;
  }

  /** The hook's decision on a Bash call; an allowed call is performed and its harm returned. */
  async function run(command: string): Promise<{ decision?: string | undefined; harm: string[] }> {
    const start = files();
    if (!before.size) for (const f of start) before.add(f);
    const r = await runClaudeHook(
      { ...d.env, GATEHOUSE_HOOK_WAIT_MS: '100', GATEHOUSE_HOOK_FALLBACK: 'deny' },
      preToolUse('Bash', { command }, { cwd: project, session: 'unnamed-writes' }),
    );
    if (r.decision !== 'allow') return { decision: r.decision, harm: [] };
    const done = spawnSync('bash', ['-c', command], {
      cwd: project,
      env: GIT_ENV,
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { decision: r.decision, harm: harm(start, done.stdout ?? '') };
  }

  it.each([
    // Copies and moves of a folder holding protected names.
    'cp -r vendor/evil/. .',
    'cp -a vendor/evil/. .',
    'cp -rT vendor/evil .',
    'cp -r vendor/evil sub',
    'cp -R vendor/evil/.claude .',
    'cp -r -t . vendor/evil/.husky',
    'rsync -a vendor/evil/ .',
    'rsync -r vendor/evil/ sub2/',
    'mv vendor/evil/.husky .',
    'mv vendor/evil moved',
    'cp -r vendor/repo sub3 && git -C sub3 status',
    // Another commit's files checked out with a new branch or worktree.
    'git checkout -q -b review evil',
    'git switch -q -c review2 evil',
    'git worktree add -q .worktrees/review evil',
    'git worktree add -q .worktrees/evil',
    // Links made into the project, then used.
    'ln -s ../outside o && cat o/secret.txt',
    'ln -s ../outside o2; cat o2/secret.txt',
    `ln -s ${outside} o3`,
    'ln -s -t . ../outside',
    'mkdir -p deep/er && ln -s ../../../outside deep/er/o && cat deep/er/o/secret.txt',
  ])('%s asks and, denied, does nothing', async (command) => {
    expect(await run(command)).toEqual({ decision: 'deny', harm: [] });
  });

  it('a link made by an earlier call to outside is followed when it is used', async () => {
    // Planted (not by the agent): the use is what is judged.
    spawnSync('ln', ['-s', outside, join(project, 'planted')]);
    expect(await run('cat planted/secret.txt')).toEqual({ decision: 'deny', harm: [] });
    expect(await run('cp planted/secret.txt mine.txt && cat mine.txt')).toEqual({
      decision: 'deny',
      harm: [],
    });
  });

  it('copies, links and branches that stay harmless stay auto and run', async () => {
    for (const command of [
      'cp -r vendor/plain copy',
      'cp -a vendor/plain copy2',
      'mv copy copy3',
      'rsync -a vendor/plain/ copy4/',
      'ln -s vendor/plain l && cat l/a.txt',
      'ln -s ../plain vendor/evil/p',
      'git checkout -q -b fresh',
      'git worktree add -q -b wt .worktrees/wt',
    ])
      expect(await run(command), command).toEqual({ decision: 'allow', harm: [] });
    expect(readFileSync(join(project, 'copy3/a.txt'), 'utf8')).toBe('plain\n');
    expect(readFileSync(join(project, 'l/a.txt'), 'utf8')).toBe('plain\n');
  });

  it('the harm checks see what the attacks do (calibration, no hook)', () => {
    const start = files();
    const done = spawnSync(
      'bash',
      ['-c', 'cp -r vendor/evil/. . && ln -s ../outside o && cat o/secret.txt'],
      { cwd: project, env: GIT_ENV, encoding: 'utf8' },
    );
    expect(harm(start, done.stdout).sort()).toEqual([
      'printed the secret',
      'wrote .claude',
      'wrote .claude/settings.json',
      'wrote .husky',
      'wrote .husky/pre-commit',
    ]);
  });
});
