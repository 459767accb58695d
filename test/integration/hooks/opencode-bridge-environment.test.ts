import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { answer } from '../../../clients/hooks/opencode/bridge';
import { TestDaemon } from '../../support/daemon';

/**
 * `gatehouse opencode-bridge` files `opencode serve`'s asks with the environment the server's
 * tools run in, as the hook does: with `.` first on the PATH, `cat README.md` runs the
 * project's own `./cat`, and the gate must know the PATH to see it. The bridge tells its own
 * environment (started from the server's shell). Real daemon, the bridge's `answer` over the
 * real socket; the calibration runs bash with that PATH.
 */
describe('the OpenCode bridge tells the gate the environment (real daemon)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-bridge-env-')));
  const asked = (id: string) => ({
    id: `per_${id}`,
    sessionID: 'ses_bridge_env',
    permission: 'bash',
    patterns: ['cat README.md'],
    metadata: { command: 'cat README.md' },
    callID: `call_${id}`,
  });
  const bridge = (env: Record<string, string | undefined>, id: string) =>
    answer(asked(id), {
      agent: 'opencode',
      waitMs: 200,
      socketPath: d.socketPath,
      log: () => undefined,
      cwd: project,
      env,
    });

  beforeAll(async () => {
    writeFileSync(join(project, 'README.md'), 'hello\n');
    writeFileSync(join(project, 'cat'), '#!/bin/sh\necho planted\n');
    chmodSync(join(project, 'cat'), 0o755);
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
  });
  afterAll(async () => {
    admin?.close();
    await d?.stop();
    rmSync(project, { recursive: true, force: true });
  });

  it('with `.` first on the PATH the call asks, and is left waiting; with it last it goes ahead', async () => {
    const dotFirst = `.:${process.env.PATH}`;
    const ran = spawnSync('bash', ['-c', 'cat README.md'], {
      cwd: project,
      env: { ...process.env, PATH: dotFirst },
      encoding: 'utf8',
    });
    expect(ran.stdout).toBe('planted\n');
    const waiting = bridge({ PATH: dotFirst }, 'first');
    await expect
      .poll(async () => (await admin.call('requests.query', { status: ['pending'] })).requests)
      .toEqual([expect.objectContaining({ command: 'cat README.md', rule: 'shell:opaque' })]);
    const [pending] = (await admin.call('requests.query', { status: ['pending'] })).requests;
    await admin.call('decide', { requestId: pending!.requestId, decision: 'deny' });
    expect(await waiting).toMatchObject({ reply: 'reject' });

    expect(await bridge({ PATH: `${process.env.PATH}:.` }, 'last')).toEqual({ reply: 'once' });
  });
});
