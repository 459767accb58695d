import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitIn as git } from '../../support/git';
import { hookDaemonPerDescribe } from '../../support/hook-daemon';

const SECRET = 'sk-live-FROM-HISTORY-93c1';

/** A repository whose first commit held `.env` (and `src/a.ts`), removed by the second. */
function repositoryWithRemovedSecret(): string {
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-history-')));
  mkdirSync(join(project, 'src'));
  writeFileSync(join(project, 'src/a.ts'), 'export const a = 1;\n');
  writeFileSync(join(project, '.env'), `API_KEY=${SECRET}\n`);
  git(project, 'init', '-q');
  git(project, 'add', '.');
  git(project, 'commit', '-qm', 'first');
  git(project, 'rm', '-q', '--cached', '.env');
  unlinkSync(join(project, '.env'));
  writeFileSync(join(project, '.gitignore'), '.env\n');
  writeFileSync(join(project, 'src/a.ts'), 'export const a = 2;\n');
  git(project, 'add', '.');
  git(project, 'commit', '-qm', 'remove .env');
  return project;
}

/**
 * A `.env` committed once and removed since is still in git's objects: `git log -p`, `git
 * show <commit>`, `git diff <revision>`, `git grep` in an old tree and `git cat-file -p` of
 * its blob print its lines, while `cat .env` would ask. Real hook processes against a real
 * daemon; what is allowed is performed by bash, and nothing asked for runs.
 */
describe('a secret in a repository history (real hook, real daemon)', () => {
  const hook = hookDaemonPerDescribe('history-secrets');
  const projects: string[] = [];
  afterAll(() => {
    for (const p of projects) rmSync(p, { recursive: true, force: true });
  });
  const runIn = (cwd: string) => hook.bashIn(cwd);

  it('asks for each command that prints the removed .env from history; what prints none goes ahead', async () => {
    const project = repositoryWithRemovedSecret();
    projects.push(project);
    const run = runIn(project);
    const blob = git(project, 'rev-parse', 'HEAD~1:.env').trim();
    const printing = [
      'git log -p',
      'git log -p --all --oneline',
      'git show HEAD~1',
      'git diff HEAD~1',
      'git diff HEAD~1 HEAD -- .',
      `git grep ${SECRET} HEAD~1`,
      `git cat-file -p ${blob}`,
      'git whatchanged -p',
    ];
    // Calibration: run, each prints the secret.
    for (const command of printing) {
      const out = spawnSync('bash', ['-c', command], { cwd: project, encoding: 'utf8' }).stdout;
      expect(out, command).toContain(SECRET);
    }
    for (const command of printing) {
      const r = await run(command);
      expect(r, command).toMatchObject({ decision: 'deny', printed: '' });
      expect(r.asked, command).toMatchObject({ rule: 'default:secret_path' });
      expect(r.asked?.ruleReason, command).toContain('.env');
    }
    for (const command of [
      'git log --oneline',
      'git log -p -- src',
      'git show HEAD:src/a.ts',
      'git show --stat HEAD~1',
      'git status --short',
      // The working tree's changes: .env is not tracked now.
      'git diff',
    ]) {
      const r = await run(command);
      expect(r.decision, command).toBe('allow');
      expect(r.printed, command).not.toContain(SECRET);
    }
    expect((await run('git log -p -- src')).printed).toContain('export const a = 2');
  });

  it('git diff of a tracked .env changed in the working tree asks (it prints the lines)', async () => {
    const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-history-tracked-')));
    projects.push(project);
    writeFileSync(join(project, '.env'), 'API_KEY=old\n');
    writeFileSync(join(project, 'a.txt'), 'a\n');
    git(project, 'init', '-q');
    git(project, 'add', '.');
    git(project, 'commit', '-qm', 'first');
    writeFileSync(join(project, '.env'), `API_KEY=${SECRET}\n`);
    writeFileSync(join(project, 'a.txt'), 'b\n');
    // Calibration: run, it prints the new key.
    const out = spawnSync('git', ['diff'], { cwd: project, encoding: 'utf8' }).stdout;
    expect(out).toContain(SECRET);
    const run = runIn(project);
    const r = await run('git diff');
    expect(r).toMatchObject({ decision: 'deny', printed: '' });
    expect(r.asked?.ruleReason).toContain('.env');
    const narrowed = await run('git diff -- a.txt');
    expect(narrowed.decision).toBe('allow');
    expect(narrowed.printed).toContain('+b');
  });

  it('a repository whose history holds no secret: git log -p goes ahead, and asks once a secret is committed', async () => {
    const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-history-clean-')));
    projects.push(project);
    writeFileSync(join(project, 'a.txt'), 'hello\n');
    git(project, 'init', '-q');
    git(project, 'add', '.');
    git(project, 'commit', '-qm', 'first');
    const run = runIn(project);
    const clean = await run('git log -p');
    expect(clean.decision).toBe('allow');
    expect(clean.printed).toContain('+hello');
    // The person commits a deploy key (and removes it): the refs change, the history is read
    // again.
    mkdirSync(join(project, 'deploy'));
    writeFileSync(join(project, 'deploy/id_ed25519'), `KEY ${SECRET}\n`);
    git(project, 'add', '.');
    git(project, 'commit', '-qm', 'key');
    git(project, 'rm', '-q', 'deploy/id_ed25519');
    git(project, 'commit', '-qm', 'no key');
    const after = await run('git log -p');
    expect(after).toMatchObject({ decision: 'deny', printed: '' });
    expect(after.asked?.ruleReason).toContain('deploy/id_ed25519');
  });
});
