import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { bashDenyingAsks } from '../../support/claude-hook';
import { TestDaemon } from '../../support/daemon';

/**
 * Gatehouse's admin token read through an option of a program that only reads: `date -f
 * FILE` prints each line of FILE it cannot parse as a date (the token is one such line), and
 * a file option joined to its letter (`grep -ofFILE`) names a file as much as a word does.
 * Real hook processes against a real daemon whose person has allowed every read, search and
 * listing by rule: the token is the daemon's to guard whatever the rules say. A call that
 * asks is denied by the person; one allowed is performed by bash in the project, and what it
 * printed is checked for the token.
 */
describe("Gatehouse's own files read through a program's option (real hook, real daemon)", () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let token: string;
  let tokenFile: string;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-own-options-')));
  const project = join(dir, 'project');

  beforeAll(async () => {
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'README.md'), 'hello\n');
    writeFileSync(join(project, 'dates.txt'), '2026-01-02\nnot a date\n');
    writeFileSync(join(project, 'patterns.txt'), 'hel\n');
    // A repository with a commit, so that `git blame` runs.
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: project });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'start');
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
    for (const action of ['read_file', 'search_files', 'list_files'])
      await admin.call('rules.add', { action, tier: 'auto' });
    tokenFile = join(d.home, 'admin.token');
    token = readFileSync(tokenFile, 'utf8').trim();
  });
  afterAll(async () => {
    admin?.close();
    await d?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The hook's Bash call: denied when it asks; performed by bash when allowed. */
  const run = (command: string) =>
    bashDenyingAsks({ env: d.env, admin, cwd: project, session: 'own-options' })(command);

  it('calibration: date -f prints the text of a file it cannot parse (no hook)', () => {
    const copy = join(dir, 'copy.token');
    copyFileSync(tokenFile, copy);
    const ran = spawnSync('date', ['-f', copy], { encoding: 'utf8' });
    expect(ran.stderr).toContain(token);
  });

  it.each([
    (t: string) => `date -f ${t}`,
    (t: string) => `date --file=${t}`,
    (t: string) => `date -uf${t}`,
    (t: string) => `date -r ${t} +%s`,
    (t: string) => `grep -of${t} -r .`,
    (t: string) => `rg -f${t} .`,
    (t: string) => `du -X${t} .`,
    (t: string) => `file -bf${t}`,
    (t: string) => `hexdump -Cf${t} README.md`,
    (t: string) => `git blame -S${t} README.md`,
  ])('%s asks (critical); denied, the token is not printed', async (form) => {
    const command = form(tokenFile);
    const r = await run(command);
    expect(r.printed, `${command} was allowed and printed this`).not.toContain(token);
    expect(r.asked).toMatchObject({ risk: 'critical', rule: 'protected:gatehouse' });
    expect(r.decision).toBe('deny');
  });

  it("moving a folder that holds Gatehouse's asks (critical); denied, the token is not printed", async () => {
    // Moved, the admin token is in a folder nothing guards, and the next read of it passes.
    // The person lets writes and commands through by rule: only the protection stands.
    const holder = dirname(d.home);
    const allowed: string[] = [];
    for (const action of ['write_file', 'run_command'])
      allowed.push((await admin.call('rules.add', { action, tier: 'auto' })).rule.ruleId);
    try {
      for (const command of [
        `mv ${holder} ${dir}/moved && cat ${dir}/moved/home/admin.token`,
        `mv -t ${dir} ${holder}`,
      ]) {
        const r = await run(command);
        expect(r.printed, `${command} was allowed and printed this`).not.toContain(token);
        expect(r.asked).toMatchObject({ risk: 'critical', rule: 'protected:gatehouse' });
        expect(r.decision).toBe('deny');
      }
    } finally {
      for (const ruleId of allowed) await admin.call('rules.remove', { ruleId });
    }
  });

  it('the same options on project files stay auto, and run', async () => {
    const dates = await run('date -u -f dates.txt');
    expect(dates.decision).toBe('allow');
    expect(dates.printed).toMatch(/2026/);
    expect(dates.printed).toContain('not a date');
    const grep = await run('grep -fpatterns.txt README.md');
    expect(grep).toMatchObject({ decision: 'allow', printed: 'hello\n' });
    expect((await run('date +%Y')).decision).toBe('allow');
  });
});
