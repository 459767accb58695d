import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookDaemonPerDescribe } from '../../support/hook-daemon';

const SECRET = 'sk-live-AWK-SECRET-77';

/**
 * awk counts as a read only for programs that print. Gatehouse once set the program's string
 * literals aside with a regex that paired the `"` inside a regex literal (`/"/`) with the next
 * string's opening quote, so the code between two `/"/` (`system("touch …")`, a `| getline`
 * printing `.env`, a `print > file`) was read as string text and the call was auto-allowed.
 * The program is now read token by token as awk reads it. Real hook processes against a real
 * daemon; a call that asks is denied, one allowed is performed by bash, and the damage is
 * checked for.
 */
describe('awk: a regex literal holding a quote hides nothing (real hook, real daemon)', () => {
  const hook = hookDaemonPerDescribe('awk-program');
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-awk-program-')));
  const marker = join(project, 'pwned');
  const settings = join(project, '.claude', 'settings.json');

  beforeAll(() => {
    writeFileSync(join(project, '.env'), `API_KEY=${SECRET}\n`);
    writeFileSync(join(project, 'users.txt'), 'root:x:0\nada:x:1001\n');
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  const run = (command: string) => hook.bashIn(project)(command);
  /** Calibration: what the command prints when bash runs it plainly. */
  const bash = (command: string) =>
    spawnSync('bash', ['-c', command], { cwd: project, encoding: 'utf8' }).stdout;

  it.each(['awk', 'mawk'])('%s: system() between two /"/ runs a command; it asks', async (awk) => {
    const command = `${awk} 'BEGIN { x = /"/ ; system("touch ${marker}") ; y = /"/ }'`;
    bash(command);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    const r = await run(command);
    expect(r.decision).toBe('deny');
    expect(r.asked?.ruleReason ?? '').toContain('awk system() runs a command');
    expect(existsSync(marker)).toBe(false);
  });

  it('a | getline between two /"/ prints .env (while cat .env asks); it asks', async () => {
    const command = `awk 'BEGIN { x = /"/; while (("cat .e" "nv") | getline l) print l; y = /"/ }'`;
    expect(bash(command)).toContain(SECRET);
    const r = await run(command);
    expect(r).toMatchObject({ decision: 'deny', printed: '' });
    expect((await run('cat .env')).decision).toBe('deny');
  });

  it('a print > file between two /"/ writes the agent settings; it asks', async () => {
    mkdirSync(join(project, '.claude'), { recursive: true });
    const command = `awk 'BEGIN { x = /"/; print "{}" > ".claude/settings.json"; y = /"/ }'`;
    bash(command);
    expect(existsSync(settings)).toBe(true);
    rmSync(settings);
    const r = await run(command);
    expect(r.decision).toBe('deny');
    expect(existsSync(settings)).toBe(false);
  });

  it('a program that prints, with a comparison and a division, is still allowed', async () => {
    const r = await run(`awk -F: '$3 > 1000 {n++; print $1} END {print n / NR}' users.txt`);
    expect(r).toMatchObject({ decision: 'allow', printed: 'ada\n0.5\n' });
  });
});
