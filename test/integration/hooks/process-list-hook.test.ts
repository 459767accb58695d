import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { bashDenyingAsks } from '../../support/claude-hook';
import { TestDaemon } from '../../support/daemon';

const SECRET = 'db-password-6f1c0a';

/**
 * Another program's command line can hold a password or a token (`mysql -pSECRET`, `curl -H
 * 'Authorization: …'`). `ps -ef` asks; `pgrep -a` printed the same command lines, auto-
 * allowed. It asks now; `pgrep` printing process numbers goes ahead. Real hook processes
 * against a real daemon, a real process given the secret in its arguments; an allowed call is
 * performed by bash and what it printed is checked.
 */
describe("other processes' command lines (real hook, real daemon)", () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let holder: ChildProcess;
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-pgrep-')));

  beforeAll(async () => {
    // `bash -c 'sleep 60; true' NAME SECRET`: the secret is in bash's arguments.
    holder = spawn('bash', ['-c', 'sleep 60; true', 'gatehouse-pgrep-holder', SECRET], {
      stdio: 'ignore',
    });
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
  });
  afterAll(async () => {
    holder?.kill();
    admin?.close();
    await d?.stop();
    rmSync(project, { recursive: true, force: true });
  });

  const run = (command: string) =>
    bashDenyingAsks({
      env: { ...d.env, GATEHOUSE_HOOK_WAIT_MS: '10000' },
      admin,
      cwd: project,
      session: 'pgrep',
    })(command);

  it.each(['pgrep -a bash', 'pgrep -af sleep', 'pgrep --list-full bash'])(
    '%s prints the secret when run, and asks',
    async (command) => {
      expect(spawnSync('bash', ['-c', command], { encoding: 'utf8' }).stdout).toContain(SECRET);
      const r = await run(command);
      expect(r).toMatchObject({ decision: 'deny', printed: '' });
    },
  );

  it('pgrep printing process numbers goes ahead', async () => {
    const r = await run('pgrep -f gatehouse-pgrep-holder');
    expect(r.decision).toBe('allow');
    expect(r.printed).toContain(String(holder.pid));
    expect(r.printed).not.toContain(SECRET);
  });
});
