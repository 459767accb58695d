import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { GatehouseClient } from '../../../clients/sdk/client';
import { runCli, TestDaemon, waitForPending } from '../../support/daemon';
import { joinHub, TestHub } from '../../support/hub';
import { personHost, type PersonHost } from '../../support/person-host';

const PROJECT = '/work/scoped';

/**
 * Scoped decisions from `gatehouse --hub URL approve`: a session or always approval, an
 * envelope, a message and conditions travel in the hub's signed decision, and the machine
 * applies them through its own decide, with its own narrowest rule. A person's CLI on another
 * host (no daemon) decides; the daemon's agent then finds its next call let through, or not.
 */
describe('scoped decisions through the hub', () => {
  let hub: TestHub;
  let daemon: TestDaemon;
  let admin: AdminClient;
  let agent: GatehouseClient;
  let person: PersonHost;
  let env: NodeJS.ProcessEnv;
  let viewerEnv: NodeJS.ProcessEnv;

  const asAnn = (args: string[], input?: string) => runCli(env, ['--hub', hub.url, ...args], input);
  const push = (command: string) =>
    agent.request({ action: 'git_push', description: command, command, wait: false });

  /** Files a call that asks, and waits until the hub lists it. */
  async function filedOnHub(command: string, action = 'git_push'): Promise<string> {
    void agent
      .request({ action, description: command, command, wait: false })
      .catch(() => undefined);
    const { requestId } = await waitForPending(admin, (r) => r.description === command);
    await expect
      .poll(async () => (await asAnn(['list'])).stdout, { timeout: 15_000 })
      .toContain(requestId);
    return requestId;
  }

  beforeAll(async () => {
    hub = await TestHub.start();
    daemon = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await daemon.admin();
    await joinHub(daemon, hub, 'laptop');
    person = personHost();
    env = { ...person.env, GATEHOUSE_HUB_TOKEN: await hub.person('ann') };
    viewerEnv = { ...person.env, GATEHOUSE_HUB_TOKEN: await hub.person('vic', 'viewer') };
    agent = await daemon.agent({ agent: 'dev', project: PROJECT });
  }, 120_000);
  afterAll(async () => {
    agent?.close();
    admin?.close();
    await daemon?.stop();
    await hub?.stop();
    person?.remove();
  });

  it('`--hub approve --scope session` makes a session grant on the machine that lets the next call through', async () => {
    const id = await filedOnHub('git push origin main');
    const approved = await asAnn(['approve', id, '--scope', 'session']);
    expect(approved).toMatchObject({ code: 0 });
    expect(approved.stdout).toContain(`${id}: approved`);
    const onMachine = (await admin.call('request.get', { requestId: id })).request;
    expect(onMachine).toMatchObject({ status: 'approved', decidedVia: 'hub:ann' });
    const grants = await admin.call('grants.list', {});
    expect(grants.grants.filter((g) => g.kind === 'session')).toHaveLength(1);
    // The same call again is let through by the grant, without asking anyone.
    expect(await push('git push origin main')).toMatchObject({
      status: 'approved',
      decidedBy: 'grant',
    });
    // The machine's narrowest rule: a forced push elsewhere still asks.
    expect((await push('git push --force origin prod')).status).toBe('queued');
  });

  it('an envelope, a message and conditions travel with the approval', async () => {
    const id = await filedOnHub('deploy the docs', 'deploy');
    const approved = await asAnn([
      'approve',
      id,
      '--uses',
      '1',
      '--message',
      'go ahead, once more at most',
      '--condition',
      'only the docs site',
    ]);
    expect(approved).toMatchObject({ code: 0 });
    const onMachine = (await admin.call('request.get', { requestId: id })).request;
    expect(onMachine).toMatchObject({ status: 'approved', decidedVia: 'hub:ann' });
    expect(onMachine.message).toBe('go ahead, once more at most');
    expect(onMachine.conditions).toEqual(['only the docs site']);
    const again = () =>
      agent.request({
        action: 'deploy',
        description: 'deploy the docs',
        command: 'deploy the docs',
        wait: false,
      });
    expect(await again()).toMatchObject({ status: 'approved', decidedBy: 'grant' });
    // One use, spent: the next one asks.
    expect((await again()).status).toBe('queued');
  });

  it('`--hub approve --scope always` saves the machine’s narrowest rule there', async () => {
    const id = await filedOnHub('git push origin docs');
    expect((await asAnn(['approve', id, '--scope', 'always'])).code).toBe(0);
    const { rules } = await admin.call('rules.list', {});
    expect(rules.map((r) => r.command)).toContain('git push origin docs');
    expect(await push('git push origin docs')).toMatchObject({ status: 'approved' });
  });

  it('review against the hub approves for the session', async () => {
    const id = await filedOnHub('git push origin review');
    // Every call still waiting (those the tests above left) is approved for its session.
    const review = await asAnn(['review'], 't\n'.repeat(10));
    expect(review.stdout).toContain('approved for this session');
    await expect
      .poll(async () => (await admin.call('request.get', { requestId: id })).request.status, {
        timeout: 15_000,
      })
      .toBe('approved');
  });

  it('a viewer cannot decide with terms, and a deny carries none', async () => {
    const id = await filedOnHub('git push origin viewer');
    const viewer = await runCli(viewerEnv, [
      '--hub',
      hub.url,
      'approve',
      id,
      '--scope',
      'always',
      '--uses',
      '5',
    ]);
    expect(viewer.code).toBe(1);
    expect(viewer.stderr).toContain('vic is a viewer and cannot decide');
    const denyWithTerms = await hub.api('POST', '/api/decide', {
      token: env.GATEHOUSE_HUB_TOKEN!,
      body: {
        machine: 'laptop',
        requestId: id,
        decision: 'deny',
        terms: { envelope: { uses: 9 } },
      },
    });
    expect(denyWithTerms.status).toBe(400);
    expect((await admin.call('request.get', { requestId: id })).request.status).toBe('pending');
    expect((await admin.call('rules.list', {})).rules.map((r) => r.command)).not.toContain(
      'git push origin viewer',
    );
  });
});
