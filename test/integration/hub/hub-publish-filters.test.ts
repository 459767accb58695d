import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { waitForPending, type TestDaemon } from '../../support/daemon';
import type { TestHub } from '../../support/hub';
import { startPostgresHubStage, type PostgresHubStage } from '../../support/hub-postgres-stage';

interface HubRow {
  requestId: string;
  status: string;
}

/**
 * Publish filters: the machine's settings name the projects and agents whose requests go to
 * the hub (all by default); the others stay on the machine, with their outcomes, across a
 * restart of the daemon too.
 */
describe('what a joined machine publishes', () => {
  let stage: PostgresHubStage;
  let hub: TestHub;
  let daemon: TestDaemon;
  let admin: AdminClient;
  let ann: string;

  const hubRequests = async (): Promise<HubRow[]> =>
    (await hub.api('GET', '/api/requests', { token: ann })).body.requests as HubRow[];
  const onHub = async (id: string, status = 'pending') =>
    expect
      .poll(async () => (await hubRequests()).find((r) => r.requestId === id)?.status, {
        timeout: 15_000,
      })
      .toBe(status);

  /** Files a request and answers its id once it waits locally. */
  async function file(agentName: string, project: string, description: string) {
    const agent = await daemon.agent({ agent: agentName, project });
    const answer = agent.request({ action: 'git_push', description });
    const id = (await waitForPending(admin, (r) => r.description === description)).requestId;
    return { id, answer, close: () => agent.close() };
  }

  beforeAll(async () => {
    stage = await startPostgresHubStage({ database: 'filters' });
    ({ hub, daemon, admin } = stage);
    ann = await hub.person('ann');
  }, 120_000);
  afterAll(() => stage?.stop());

  it('publishes every project and agent by default', async () => {
    const a = await file('scout', '/work/private', 'default: any project');
    await onHub(a.id);
    a.close();
  });

  it('with filters, publishes only the named projects and agents; the rest stays local', async () => {
    for (const [key, value] of [
      ['hub.publishProjects', '["/work/team"]'],
      ['hub.publishAgents', '["builder"]'],
    ] as const)
      expect((await daemon.cli(['config', 'set', key, value])).code).toBe(0);
    const privateProject = await file('builder', '/work/private', 'filtered: private project');
    const otherAgent = await file('scout', '/work/team/app', 'filtered: other agent');
    const published = await file('builder', '/work/team/app', 'filtered: published');
    // The outbox is published in order: once the last one is on the hub, the first two
    // would be too had they been queued.
    await onHub(published.id);
    let ids = (await hubRequests()).map((r) => r.requestId);
    expect(ids).not.toContain(privateProject.id);
    expect(ids).not.toContain(otherAgent.id);
    // Decided locally: the outcome stays local too; the hub cannot decide what it never saw.
    expect((await daemon.cli(['deny', privateProject.id])).code).toBe(0);
    expect(await privateProject.answer).toMatchObject({ status: 'denied' });
    const forged = await hub.api('POST', '/api/decide', {
      token: ann,
      body: { machine: 'laptop', requestId: otherAgent.id, decision: 'approve' },
    });
    expect(forged.status).toBe(404);
    // A restart runs the crash catch-up: it must not publish what the filters keep local.
    await daemon.signal('SIGKILL');
    await daemon.launch(['--no-dashboard']);
    admin.close();
    admin = stage.admin = await daemon.admin();
    const after = await file('builder', '/work/team', 'filtered: after restart');
    await onHub(after.id);
    ids = (await hubRequests()).map((r) => r.requestId);
    expect(ids).not.toContain(privateProject.id);
    expect(ids).not.toContain(otherAgent.id);
    expect((await admin.call('request.get', { requestId: otherAgent.id })).request.status).toBe(
      'pending',
    );
    for (const r of [privateProject, otherAgent, published, after]) r.close();
  });
});
