import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { bashDenyingAsks } from '../../support/claude-hook';
import { TestDaemon } from '../../support/daemon';

/**
 * A walk that follows the symbolic links it meets (`grep -R`, `find -L`, `zip -r`, `tar -h`,
 * `cp -rL`) reads what is behind them: a link in the project to Gatehouse's folder (one the
 * person made, or a repository checked out with it) hands the agent the admin token. Real hook
 * processes against a real daemon whose person has allowed every read, write and command by
 * rule; a call that asks is denied, one allowed is performed by bash and what it printed is
 * checked for the token.
 */
describe("walks through symbolic links into Gatehouse's folder (real hook, real daemon)", () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let token: string;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-link-walks-')));
  const project = join(dir, 'project');

  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
    token = readFileSync(join(d.home, 'admin.token'), 'utf8').trim();
    mkdirSync(join(project, 'src'), { recursive: true });
    mkdirSync(join(project, 'docs'), { recursive: true });
    writeFileSync(join(project, 'src/a.ts'), 'export const a = 1;\n');
    writeFileSync(join(project, 'docs/a.md'), 'notes\n');
    symlinkSync(d.home, join(project, 'src/cache'));
    for (const action of ['read_file', 'search_files', 'write_file', 'run_command'])
      await admin.call('rules.add', { action, tier: 'auto' });
  });
  afterAll(async () => {
    admin?.close();
    await d?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The hook's Bash call: denied when it asks; performed by bash when allowed. */
  const run = (command: string) =>
    bashDenyingAsks({ env: d.env, admin, cwd: project, session: 'link-walks' })(command);

  it.each([
    'grep -R . src',
    'grep -R --include=*.token .',
    'find -L src -name admin.token -print -quit',
    'zip -qr - src | cat',
    'tar -chf - src | cat',
    'cp -rL src copy && cat copy/cache/admin.token',
  ])('%s asks, critical; denied, the token is not printed', async (command) => {
    const r = await run(command);
    expect(r.printed, `${command} was allowed and printed this`).not.toContain(token);
    expect(r.asked).toMatchObject({ risk: 'critical', rule: 'protected:gatehouse' });
    expect(r.asked?.ruleReason).toMatch(/symbolic link/);
    expect(r.decision).toBe('deny');
  });

  it('calibration: grep -R does print the token through the link (no hook)', () => {
    const ran = spawnSync('grep', ['-R', '.', 'src'], { cwd: project, encoding: 'utf8' });
    expect(ran.stdout).toContain(token);
  });

  it('walks that keep links as links, or do not meet one, stay allowed and run', async () => {
    for (const command of ['grep -r export src', 'grep -R notes docs', 'tar -cf - src | cat'])
      expect({ command, decision: (await run(command)).decision }).toEqual({
        command,
        decision: 'allow',
      });
    expect((await run('grep -r export src')).printed).toContain('src/a.ts');
  });
});
