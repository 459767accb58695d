import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RpcClient } from '../../../clients/sdk/rpc-client';
import { TestDaemon } from '../../support/daemon';
import { errorCodeOf } from '../../support/rpc-error-code';

describe('grants.list (real daemon, real socket)', () => {
  let d: TestDaemon;
  beforeEach(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
  });
  afterEach(async () => {
    await d.stop();
  });

  it('shows the person what an envelope lets an agent do; the agent can neither read it nor stretch it', async () => {
    const agent = await d.agent({ agent: 'deployer', project: '/work/p' });
    const deploy = () =>
      agent.request({
        action: 'deploy',
        description: 'make deploy',
        command: 'make deploy',
        wait: false,
      });
    const first = await deploy();
    expect(first.status).toBe('queued');
    const admin = await d.admin();
    await admin.call('decide', {
      requestId: first.requestId,
      decision: 'approve',
      envelope: { uses: 1 },
    });
    const [grant] = (await admin.call('grants.list', {})).grants;
    expect(grant).toMatchObject({
      agent: 'deployer',
      action: 'deploy',
      kind: 'envelope',
      usesLeft: 1,
      matchers: { command: 'make deploy' },
      sourceRequestId: first.requestId,
    });

    // The agent's role reaches no admin method, this one included.
    const rpc = new RpcClient(d.socketPath);
    await rpc.connect();
    await rpc.call('hello', { agent: 'deployer', project: '/work/p' });
    expect(await errorCodeOf(rpc.call('grants.list', {}))).toBe(-32601);
    rpc.close();

    // Used once, it is gone from the list, and the next deploy asks again.
    expect(await deploy()).toMatchObject({ status: 'approved', decidedBy: 'grant' });
    expect((await admin.call('grants.list', {})).grants).toEqual([]);
    expect(await deploy()).toMatchObject({ status: 'queued' });
    admin.close();
    agent.close();
  });
});
