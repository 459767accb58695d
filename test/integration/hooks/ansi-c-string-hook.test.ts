import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookDaemonPerDescribe } from '../../support/hook-daemon';

/**
 * bash hands a program the text of a `$'…'` string with its escapes made (`\x73` is `s`);
 * Gatehouse read the escapes as written, so `awk $'BEGIN{\x73ystem("…")}'` was an awk
 * program without `system` to it, auto-allowed, and ran the command. Real hook processes
 * against a real daemon; what is allowed is performed by bash.
 */
describe("a $'…' string is read as bash makes it (real hook, real daemon)", () => {
  const hook = hookDaemonPerDescribe('ansi-c-string');
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-ansi-c-')));
  const marker = join(project, 'ran');

  beforeAll(() => writeFileSync(join(project, 'notes.txt'), 'a\tb\n'));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  const run = (command: string) => hook.bashIn(project)(command);

  it('awk with system spelled in escapes asks, and nothing runs; an escaped tab goes ahead', async () => {
    const command = `awk $'BEGIN{\\x73ystem("touch ${marker}")}'`;
    // Calibration: run, awk runs the command.
    spawnSync('bash', ['-c', command], { cwd: project });
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);

    const r = await run(command);
    expect(r).toMatchObject({ decision: 'deny', printed: '' });
    expect(existsSync(marker)).toBe(false);
    const tab = await run(`awk -F $'\\t' '{print $2}' notes.txt`);
    expect(tab).toMatchObject({ decision: 'allow' });
    expect(tab.printed).toBe('b\n');
  });
});
