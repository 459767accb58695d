import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { runCli, TestDaemon, waitForPending } from '../../support/daemon';
import { joinHub, TestHub } from '../../support/hub';

/**
 * `gatehouse hub` with no database URL: the embedded PostgreSQL (PGlite) in
 * `$GATEHOUSE_HOME/hub/data`, the one-command trial. The same flow as on a server.
 */
describe('the hub on its embedded database', () => {
  let hub: TestHub;
  let daemon: TestDaemon;
  let admin: AdminClient;

  beforeAll(async () => {
    hub = await TestHub.start();
    daemon = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await daemon.admin();
  }, 120_000);
  afterAll(async () => {
    admin?.close();
    await daemon?.stop();
    await hub?.stop();
  });

  it('keeps its data in the hub folder, joins a machine, and a hub decision reaches the waiting agent', async () => {
    expect(hub.output).toContain(`embedded in ${join(hub.home, 'hub', 'data')}`);
    expect(existsSync(join(hub.home, 'hub', 'data', 'PG_VERSION'))).toBe(true);
    const ann = await hub.person('ann');
    await joinHub(daemon, hub, 'trial');
    const agent = await daemon.agent({ agent: 'builder', project: '/work/p' });
    const answer = agent.request({ action: 'git_push', description: 'push (embedded hub)' });
    const id = (await waitForPending(admin, (r) => r.description === 'push (embedded hub)'))
      .requestId;
    const env = { ...hub.env, GATEHOUSE_HUB_TOKEN: ann };
    await expect
      .poll(async () => (await runCli(env, ['--hub', hub.url, 'list'])).stdout, {
        timeout: 15_000,
      })
      .toContain(id);
    const decided = await runCli(env, ['--hub', hub.url, 'approve', id]);
    expect(decided).toMatchObject({ code: 0 });
    expect(await answer).toMatchObject({ status: 'approved' });
    const again = await runCli(env, ['--hub', hub.url, 'deny', id]);
    expect(again.code).toBe(4);
    expect(again.stderr).toContain('already decided on the hub by ann');
    agent.close();
  });

  it('says clearly what is wrong with a bad or unreachable database, and with a bad input', async () => {
    const bad = await runCli(hub.env, ['hub', '--port', '0', '--database-url', 'mysql://db/x']);
    expect(bad).toMatchObject({ code: 1 });
    expect(bad.stderr).toContain('must start with postgres:// or postgresql://');
    const away = await runCli(hub.env, [
      'hub',
      '--port',
      '0',
      '--database-url',
      'postgres://u:secret@127.0.0.1:1/x',
    ]);
    expect(away.code).toBe(1);
    expect(away.stderr).toMatch(
      /cannot reach the database at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/x: .*ECONNREFUSED/,
    );
    expect(away.stderr).not.toContain('secret');
    const invite = await hub.cli(['invite', '--machine', 'no spaces allowed']);
    expect(invite.code).toBe(4);
    const role = await hub.cli(['user', 'add', 'bob', '--role', 'owner']);
    expect(role.code).toBe(4);
    const join = await daemon.cli(['hub', 'join', 'ftp://hub', 'x'.repeat(20)]);
    expect(join.code).toBe(4);
  });
});
