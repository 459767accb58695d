import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookDaemonPerDescribe } from '../../support/hook-daemon';
import { gitIn as git } from '../../support/git';

const SECRET = 'sk-live-PAST-THE-WALK-5d20';

/**
 * A search walks its folder for secret files by name, up to 50,000 names. An agent that can
 * write files (a rule of the person's lets writes in the project through) makes more than
 * that beside a folder holding a `.env`, so that the walk stops before it: `grep -r KEY .`
 * then printed the `.env` while `cat` of it asks. Real hook processes against a real daemon;
 * what is allowed is performed by bash.
 */
describe('a search past the names the walk looks at (real hook, real daemon)', () => {
  const hook = hookDaemonPerDescribe('past-walk', { writesAllowed: true });
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-past-walk-')));

  beforeAll(() => {
    git(project, 'init', '-q');
    mkdirSync(join(project, 'config/deep/er'), { recursive: true });
    writeFileSync(join(project, 'config/deep/er/.env'), `API_KEY=${SECRET}\n`);
    writeFileSync(join(project, 'README.md'), 'hello API_KEY\n');
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  const run = (command: string) => hook.bashIn(project)(command);

  it('with 60,000 files made beside it, grep -r and rg --hidden ask (bash calibration prints the .env)', async () => {
    // 60,000 empty files, as the write rule lets an agent make them.
    const made = spawnSync(
      'bash',
      [
        '-c',
        'mkdir -p pad/d{0..59} && for d in pad/d*; do (cd $d && seq 0 999 | xargs touch); done',
      ],
      { cwd: project, encoding: 'utf8' },
    );
    expect(made.status, made.stderr).toBe(0);
    for (const command of ['grep -rn API_KEY .', 'rg --hidden API_KEY .']) {
      // Calibration: run, it prints the secret.
      const out = spawnSync('bash', ['-c', command], { cwd: project, encoding: 'utf8' }).stdout;
      expect(out, command).toContain(SECRET);
      const r = await run(command);
      expect(r, command).toMatchObject({ decision: 'deny', printed: '' });
      expect(r.asked?.ruleReason, command).toContain('more than 50,000 names');
    }
    // A search of a file, not a folder, goes ahead.
    const readme = await run('grep -rn hello README.md');
    expect(readme).toMatchObject({ decision: 'allow' });
    expect(readme.printed).toContain('hello');
  });

  it('.gitignore naming the padding: rg (which reads no ignored folder) walks without it and finds the .env', async () => {
    writeFileSync(join(project, '.gitignore'), 'pad/\n');
    const r = await run('rg --hidden API_KEY .');
    expect(r).toMatchObject({ decision: 'deny', printed: '' });
    expect(r.asked?.ruleReason, r.asked?.ruleReason).toContain('config/deep/er/.env');
    rmSync(join(project, 'config/deep/er/.env'));
    const clean = await run('rg --hidden API_KEY .');
    expect(clean.decision, clean.asked?.ruleReason).toBe('allow');
    expect(clean.printed).toContain('hello API_KEY');
  });
});
