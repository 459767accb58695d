import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hookDaemonPerDescribe } from '../../support/hook-daemon';

const SECRET = 'sk-live-DIFF-SECRET-31';

/**
 * `diff` of two folders pairs their files by name and prints the text of each pair that
 * differs; with `-N`/`--new-file` a file only one side holds is compared with an empty one,
 * so its whole text is printed. Gatehouse knew the walks of grep, rg, ag and git grep, not
 * diff's: `diff -rN src .` printed the project's `.env`, auto-allowed, while `cat .env` asks.
 * A diff of folders is now a walk of each (hidden names, every file, links followed; the
 * folders' own files only without `-r`), and asks when a secret is there; `diff -rq` prints
 * only names and goes ahead.
 */
describe('diff of folders prints a secret it walks (real hook, real daemon)', () => {
  const hook = hookDaemonPerDescribe('diff-walk');
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-diff-walk-')));
  mkdirSync(join(project, 'src'));
  mkdirSync(join(project, 'lib'));
  writeFileSync(join(project, 'lib/a.ts'), 'export const a = 3;\n');
  mkdirSync(join(project, 'other/config'), { recursive: true });
  writeFileSync(join(project, 'src/a.ts'), 'export const a = 1;\n');
  writeFileSync(join(project, 'other/a.ts'), 'export const a = 2;\n');
  writeFileSync(join(project, 'other/config/.env'), `API_KEY=${SECRET}-other\n`);
  writeFileSync(join(project, '.env'), `API_KEY=${SECRET}\n`);
  afterAll(() => rmSync(project, { recursive: true, force: true }));
  const run = (command: string) => hook.bashIn(project)(command);
  const bash = (command: string) =>
    spawnSync('bash', ['-c', command], { cwd: project, encoding: 'utf8' }).stdout;

  it.each([
    'diff -rN src .',
    'diff -r --new-file src .',
    'diff -ru src . -N',
    'diff -N src .',
    'diff -rN src other',
  ])('%s prints a key when run, and asks', async (command) => {
    // Calibration: bash runs it and it prints the key.
    expect(bash(command)).toContain(SECRET);
    const r = await run(command);
    expect(r.decision).toBe('deny');
    expect(r.printed).not.toContain(SECRET);
  });

  it('a diff that prints names, of files, or of folders without a secret goes ahead', async () => {
    for (const [command, printed] of [
      ['diff -rq src .', 'Only in .: .env'],
      ['diff -u src/a.ts other/a.ts', '+export const a = 2;'],
      ['diff -r src lib', '> export const a = 3;'],
      // Without -r only the folders' own files: other/config/.env is not read.
      ['diff -N src other', '> export const a = 2;'],
    ] as const) {
      const r = await run(command);
      expect(r.decision, command).toBe('allow');
      expect(r.printed, command).toContain(printed);
      expect(r.printed, command).not.toContain(SECRET);
    }
  });
});
