import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookDaemonPerDescribe } from '../../support/hook-daemon';
import { gitIn as git } from '../../support/git';

/**
 * git finds a bare repository by itself in any folder holding `HEAD`, `objects` and `refs`,
 * and runs what its config says (a diff textconv at `git log -p`). Where a rule of the
 * person's lets writes in the project through, an agent can make one with plain writes, none
 * of them to a `.git`: a `git log -p` there would run its program. Real hook processes
 * against a real daemon; what is allowed is performed by bash.
 */
describe('a bare repository an agent makes by hand (real hook, real daemon)', () => {
  const hook = hookDaemonPerDescribe('bare-repo', { writesAllowed: true });
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-bare-repo-')));
  const marker = join(project, 'ran-textconv');

  beforeAll(() => {
    git(project, 'init', '-q');
    writeFileSync(join(project, 'a.txt'), 'hello\n');
    git(project, 'add', 'a.txt');
    git(project, 'commit', '-qm', 'first');
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  const run = (command: string) => hook.bashIn(project)(command);

  it('each plain write goes ahead (the rule); git log -p in the folder they make asks, and the textconv does not run', async () => {
    for (const command of [
      'mkdir -p evil/refs/heads evil/objects/info evil/info',
      "printf '../../.git/objects\\n' > evil/objects/info/alternates",
      "printf 'ref: refs/heads/main\\n' > evil/HEAD",
      'git rev-parse HEAD > evil/refs/heads/main',
      `printf '[core]\\n\\tbare = true\\n[diff "x"]\\n\\ttextconv = touch ${marker}; cat\\n' > evil/config`,
      "printf '* diff=x\\n' > evil/info/attributes",
    ])
      expect((await run(command)).decision, command).toBe('allow');
    // Calibration: run, git finds the repository by itself and runs the textconv.
    spawnSync('bash', ['-c', 'cd evil && git log -p'], { cwd: project });
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    for (const command of [
      'cd evil && git log -p',
      'git -C evil log -p',
      'cd evil/refs && git diff HEAD~0',
    ]) {
      const r = await run(command);
      expect(r, command).toMatchObject({ decision: 'deny', printed: '' });
      expect(r.asked, command).toMatchObject({ rule: 'protected:vcs_config', risk: 'critical' });
    }
    expect(existsSync(marker)).toBe(false);
    // The project's own repository: git log -p goes ahead.
    const own = await run('git log -p');
    expect(own.decision).toBe('allow');
    expect(own.printed).toContain('+hello');
  });

  it('a folder looked at by git, then made one in a line, right after: git there asks', async () => {
    // The calls follow each other within a second, as tool calls of one answer do: a kept
    // "not a bare repository" let the textconv run.
    const make = [
      'mkdir -p late/refs/heads late/objects/info late/info',
      "printf '../../.git/objects\\n' > late/objects/info/alternates",
      "printf 'ref: refs/heads/main\\n' > late/HEAD",
      'git rev-parse HEAD > late/refs/heads/main',
      `printf '[core]\\n\\tbare = true\\n[diff "x"]\\n\\ttextconv = touch ${marker}; cat\\n' > late/config`,
      "printf '* diff=x\\n' > late/info/attributes",
    ].join(' && ');
    expect((await run('mkdir -p late && git -C late log -p')).decision).toBe('allow');
    expect((await run(make)).decision).toBe('allow');
    const r = await run('git -C late log -p');
    expect(r).toMatchObject({ decision: 'deny', printed: '' });
    expect(existsSync(marker)).toBe(false);
  });
});
