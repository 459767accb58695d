import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RpcClient } from '../../../clients/sdk/rpc-client';
import { ErrorCode } from '../../../shared/protocol/errors';
import { TestDaemon } from '../../support/daemon';
import { errorCodeOf } from '../../support/rpc-error-code';

describe('grants.get (real daemon, real socket)', () => {
  let d: TestDaemon;
  beforeEach(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
  });
  afterEach(async () => {
    await d.stop();
  });

  it('shows the person a grant after it ran out; the agent cannot read it', async () => {
    const agent = await d.agent({ agent: 'deployer', project: '/work/p' });
    const deploy = () =>
      agent.request({
        action: 'deploy',
        description: 'make deploy',
        command: 'make deploy',
        wait: false,
      });
    const first = await deploy();
    const admin = await d.admin();
    const decided = await admin.call('decide', {
      requestId: first.requestId,
      decision: 'approve',
      envelope: { uses: 1 },
    });
    const grantId = decided.grants?.[0]?.grantId;
    expect(grantId).toBeDefined();
    const inForce = (await admin.call('grants.get', { grantId: grantId! })).grant;
    expect(inForce).toMatchObject({
      grantId,
      agent: 'deployer',
      kind: 'envelope',
      usesLeft: 1,
      sourceRequestId: first.requestId,
    });
    expect(inForce).not.toHaveProperty('endedAt');
    expect(inForce).not.toHaveProperty('fingerprint');

    // Used once, it leaves grants.list, but the person can still read what let the call through.
    const used = await deploy();
    expect(used).toMatchObject({ status: 'approved', decidedBy: 'grant' });
    expect((await admin.call('grants.list', {})).grants).toEqual([]);
    const ended = (await admin.call('grants.get', { grantId: grantId! })).grant;
    expect(ended).toMatchObject({ grantId, usesLeft: 0 });
    expect(Date.parse(ended.endedAt!)).toBeGreaterThanOrEqual(Date.parse(ended.createdAt));

    // An id no grant has, and one past the schema's bound, are refused.
    expect(await errorCodeOf(admin.call('grants.get', { grantId: 'no-such-grant' }))).toBe(
      ErrorCode.NotFound,
    );
    expect(await errorCodeOf(admin.call('grants.get', { grantId: 'g'.repeat(129) }))).toBe(
      ErrorCode.InvalidParams,
    );

    // The agent's role reaches no admin method, this one included.
    const rpc = new RpcClient(d.socketPath);
    await rpc.connect();
    await rpc.call('hello', { agent: 'deployer', project: '/work/p' });
    expect(await errorCodeOf(rpc.call('grants.get', { grantId: grantId! }))).toBe(
      ErrorCode.MethodNotFound,
    );
    rpc.close();
    admin.close();
    agent.close();
  });
});
