import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookDaemonPerDescribe } from '../../support/hook-daemon';
import { gitIn as git } from '../../support/git';

const SECRET = 'sk-live-KEPT-WALK-7c41';

/**
 * The walk a search makes for secret files is kept a second (one command's candidate actions
 * each ask for it, and searches come in runs). An agent whose calls follow each other within
 * that second (several tool calls in one answer, run one after the other) searched once,
 * renamed a folder .gitignore names, holding a key, to one it does not, and searched again:
 * the kept walk said the key was kept out and rg printed it. Real hook processes against a
 * real daemon; what is allowed is performed by bash.
 */
describe('a kept walk and the calls right after it (real hook, real daemon)', () => {
  const hook = hookDaemonPerDescribe('kept-walk', { writesAllowed: true });
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-kept-walk-')));

  beforeAll(() => {
    git(project, 'init', '-q');
    mkdirSync(join(project, 'target'));
    writeFileSync(join(project, 'target/server.pem'), `${SECRET}\n`);
    writeFileSync(join(project, '.gitignore'), 'target/\n');
    writeFileSync(join(project, 'README.md'), `hello ${SECRET.slice(0, 7)}\n`);
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  const run = (command: string) => hook.bashIn(project)(command);
  const search = `rg --hidden ${SECRET.slice(0, 7)} .`;

  it('a folder renamed out of what .gitignore names, right after a search: the next one asks', async () => {
    // Calibration: rg skips target/, and reads the key once the folder is renamed.
    const bash = (command: string) =>
      spawnSync('bash', ['-c', command], { cwd: project, encoding: 'utf8' }).stdout;
    expect(bash(search)).not.toContain(SECRET);
    bash('mv target other');
    expect(bash(search)).toContain(SECRET);
    bash('mv other target');

    // The three calls take about a second here (the old code printed the key); the kept walk
    // itself is pinned by secret-files.test.ts, which counts the names looked at.
    const first = await run(search);
    expect(first).toMatchObject({ decision: 'allow' });
    expect(first.printed).toContain('README.md');
    expect(first.printed).not.toContain(SECRET);
    expect(await run('mv target other')).toMatchObject({ decision: 'allow' });
    const after = await run(search);
    expect(after).toMatchObject({ decision: 'deny', printed: '' });
    expect(after.asked?.ruleReason).toContain('other/server.pem');
  });
});
