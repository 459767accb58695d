import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RpcClient } from '../../../clients/sdk/rpc-client';
import { TestDaemon } from '../../support/daemon';
import { errorCodeOf } from '../../support/rpc-error-code';

const PROJECT = '/work/p';
const APPLY = 'kubectl apply -f k8s/prod.yaml';

describe('"always" covers what the person saw (real daemon, real socket, real CLI)', () => {
  let d: TestDaemon;
  beforeEach(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
  });
  afterEach(async () => {
    await d.stop();
  });

  it('approve --scope always on kubectl apply saves that command only; delete and helm still ask', async () => {
    const agent = await d.agent({ agent: 'ops', project: PROJECT });
    const deploy = (command: string) =>
      agent.request({ action: 'deploy', description: command, command, wait: false });
    const first = await deploy(APPLY);
    expect(first.status).toBe('queued');

    const approve = await d.cli(['approve', first.requestId, '--scope', 'always']);
    expect(approve.code).toBe(0);
    const described = `deploy with command \`${APPLY}\` in project ${PROJECT}`;
    expect(approve.stdout).toContain(`will save the rule: ${described}`);
    const created = /created rule (\S+): (.*)/.exec(approve.stdout);
    expect(created?.[2]).toBe(described);

    expect(await deploy(APPLY)).toMatchObject({ status: 'approved', decidedBy: 'rule' });
    expect(await deploy('kubectl delete namespace prod')).toMatchObject({ status: 'queued' });
    expect(await deploy('helm uninstall payments')).toMatchObject({ status: 'queued' });
    expect(
      (await agent.classify({ action: 'deploy', command: 'kubectl delete ns prod' })).tier,
    ).toBe('ask');

    const listed = await d.cli(['rules']);
    expect(listed.stdout).toContain(created![1]!);
    expect(listed.stdout).toContain(`command \`${APPLY}\``);

    const admin = await d.admin();
    const [entry] = (await admin.call('audit.query', { type: 'request.approved' })).events;
    expect(entry!.data).toMatchObject({ rule: created![1], ruleDescription: described });
    admin.close();
    agent.close();
  });

  it('--pattern picks a prefix rule, checked against the request first', async () => {
    const agent = await d.agent({ agent: 'ops', project: PROJECT });
    const deploy = (command: string) =>
      agent.request({ action: 'deploy', description: command, command, wait: false });
    const q = await deploy(APPLY);

    const wrong = await d.cli(['approve', q.requestId, '--scope', 'always', '--pattern', 'helm:*']);
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain('does not cover');
    expect((await d.cli(['rules', '--json'])).stdout.trim()).toBe('[]');

    const ok = await d.cli([
      'approve',
      q.requestId,
      '--scope',
      'always',
      '--pattern',
      'kubectl apply:*',
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`created rule rul-`);
    expect(ok.stdout).toContain(`deploy with command \`kubectl apply:*\` in project ${PROJECT}`);
    expect(await deploy('kubectl apply -f k8s/staging.yaml')).toMatchObject({ decidedBy: 'rule' });
    expect(await deploy('kubectl apply -f x.yaml && kubectl delete ns prod')).toMatchObject({
      status: 'queued',
    });
    expect(await deploy('kubectl delete namespace prod')).toMatchObject({ status: 'queued' });

    // A hand-made action-wide rule still works, and is listed as such.
    const add = await d.cli(['rules', 'add', 'install_package', '--tier', 'auto']);
    expect(add.stdout).toContain('any install_package in any project (action-wide)');
    expect((await d.cli(['rules'])).stdout).toContain('(action-wide)');
    expect((await agent.classify({ action: 'install_package', command: 'npm i x' })).tier).toBe(
      'auto',
    );
    agent.close();
  });

  it('a draft from the admin API must cover the request (-32602); preview lists the widenings', async () => {
    const agent = await d.agent({ agent: 'ops', project: PROJECT });
    const q = await agent.request({
      action: 'deploy',
      description: 'apply',
      command: APPLY,
      wait: false,
    });
    const admin = await d.admin();
    const preview = await admin.call('rules.preview', { requestId: q.requestId });
    expect(preview.widenings).toEqual([
      { action: 'deploy', commandPrefix: 'kubectl apply', project: PROJECT },
      { action: 'deploy', project: PROJECT },
      { action: 'deploy' },
    ]);
    expect(preview.describe).toHaveLength(4);
    const decide = (rule: object) =>
      admin.call('decide', {
        requestId: q.requestId,
        decision: 'approve',
        scope: 'always',
        rule: rule as { action: string },
      });
    expect(await errorCodeOf(decide({ action: 'git_push' }))).toBe(-32602);
    expect(
      await errorCodeOf(decide({ action: 'deploy', command: 'helm uninstall payments' })),
    ).toBe(-32602);
    expect((await admin.call('rules.list', {})).rules).toEqual([]);
    const done = await decide(preview.widenings[0]!);
    expect(done.rule?.description).toBe(
      `deploy with command \`kubectl apply:*\` in project ${PROJECT}`,
    );
    admin.close();
    agent.close();
  });

  it('a session approval of git push origin main does not cover git push --force origin prod', async () => {
    const agent = await d.agent({ agent: 'dev', project: PROJECT });
    const push = (command: string) =>
      agent.request({ action: 'git_push', description: command, command, wait: false });
    const q = await push('git push origin main');
    const approve = await d.cli(['approve', q.requestId, '--scope', 'session']);
    expect(approve.stdout).toContain('issued session grant');
    expect(await push('git push origin main')).toMatchObject({ decidedBy: 'grant' });
    expect(await push('git push --force origin prod')).toMatchObject({ status: 'queued' });
    agent.close();
  });

  it('a late approval for the session audits both grants', async () => {
    const agent = await d.agent({ agent: 'dev', project: PROJECT });
    const late = await agent.request({
      action: 'git_push',
      description: 'push',
      command: 'git push origin main',
      timeoutMs: 100,
    });
    expect(late.status).toBe('timed_out');
    const admin = await d.admin();
    const out = await admin.call('decide', {
      requestId: late.requestId,
      decision: 'approve',
      scope: 'session',
    });
    expect(out.grants?.map((g) => g.kind)).toEqual(['late_approval', 'session']);
    const [entry] = (
      await admin.call('audit.query', { type: 'request.approved', requestId: late.requestId })
    ).events;
    expect((entry!.data.grants as { grantId: string }[]).map((g) => g.grantId)).toEqual(
      out.grants!.map((g) => g.grantId),
    );
    admin.close();
    agent.close();
  });

  it('an agent reaches none of it: rules.preview, rules.add and decide are -32601', async () => {
    const agent = await d.agent({ agent: 'sneaky', project: PROJECT });
    const q = await agent.request({
      action: 'deploy',
      description: 'apply',
      command: APPLY,
      wait: false,
    });
    const rpc = new RpcClient(d.socketPath);
    await rpc.connect();
    await rpc.call('hello', { agent: 'sneaky', project: PROJECT });
    expect(await errorCodeOf(rpc.call('rules.preview', { requestId: q.requestId }))).toBe(-32601);
    expect(
      await errorCodeOf(
        rpc.call('rules.add', { action: 'deploy', tier: 'auto', commandPrefix: 'kubectl' }),
      ),
    ).toBe(-32601);
    expect(
      await errorCodeOf(
        rpc.call('decide', {
          requestId: q.requestId,
          decision: 'approve',
          scope: 'always',
          rule: { action: 'deploy' },
        }),
      ),
    ).toBe(-32601);
    rpc.close();
    const admin = await d.admin();
    expect((await admin.call('rules.list', {})).rules).toEqual([]);
    expect((await admin.call('request.get', { requestId: q.requestId })).request.status).toBe(
      'pending',
    );
    admin.close();
    agent.close();
  });
});
