import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatehouseError } from '../../../../../shared/protocol/errors';
import { EngineHarness, flush } from '../../../../support/engine-harness';

const P = '/home/dev/app';
const req = (over: Record<string, unknown> = {}) => ({
  action: 'deploy',
  description: 'deploy',
  urgency: 'normal' as const,
  wait: false,
  ...over,
});

describe('what an approval remembers', () => {
  let h: EngineHarness;
  beforeEach(() => (h = new EngineHarness()));
  afterEach(() => h.close());

  it('"always" saves the narrowest rule and names it; other commands still ask', async () => {
    const a = h.hello('agent-a', { project: P });
    const apply = req({ command: 'kubectl apply -f k8s/prod.yaml' });
    const q = await h.engine.request(a, apply);
    const out = h.engine.admin.call('decide', {
      requestId: q.requestId,
      decision: 'approve',
      scope: 'always',
    });
    expect(out.rule).toEqual({
      ruleId: expect.any(String),
      description: `deploy with command \`kubectl apply -f k8s/prod.yaml\` in project ${P}`,
    });
    expect(h.engine.admin.call('rules.list', {}).rules).toMatchObject([
      { action: 'deploy', command: 'kubectl apply -f k8s/prod.yaml', project: P },
    ]);
    expect(await h.engine.request(a, apply)).toMatchObject({
      status: 'approved',
      decidedBy: 'rule',
    });
    for (const command of ['kubectl delete namespace prod', 'helm uninstall payments'])
      expect(await h.engine.request(a, req({ command }))).toMatchObject({ status: 'queued' });
    await h.work.durable();
    const [approved] = h.store.queryAudit({ type: 'request.approved', limit: 5 });
    expect(approved!.data).toMatchObject({
      rule: out.rule!.ruleId,
      ruleDescription: out.rule!.description,
    });
  });

  it('a chosen draft must be for the action and cover the request, else -32602 and nothing changes', async () => {
    const a = h.hello('agent-a', { project: P });
    const q = await h.engine.request(a, req({ command: 'kubectl apply -f k8s/prod.yaml' }));
    const bad = [
      { action: 'git_push', project: P },
      { action: 'deploy', commandPrefix: 'helm:*', project: P },
      { action: 'deploy', project: '/elsewhere' },
    ];
    for (const rule of bad) {
      let caught: unknown;
      try {
        h.engine.admin.call('decide', {
          requestId: q.requestId,
          decision: 'approve',
          scope: 'always',
          rule,
        });
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(GatehouseError);
      expect((caught as GatehouseError).code).toBe(-32602);
    }
    expect(h.engine.admin.call('rules.list', {}).rules).toEqual([]);
    expect(h.store.getRequest(q.requestId)!.status).toBe('pending');
    const out = h.engine.admin.call('decide', {
      requestId: q.requestId,
      decision: 'approve',
      scope: 'always',
      rule: { action: 'deploy', commandPrefix: 'kubectl apply:*', project: P },
    });
    expect(out.rule!.description).toBe(`deploy with command \`kubectl apply:*\` in project ${P}`);
    expect(
      await h.engine.request(a, req({ command: 'kubectl apply -f k8s/staging.yaml' })),
    ).toMatchObject({ decidedBy: 'rule' });
    expect(
      await h.engine.request(
        a,
        req({ command: 'kubectl apply -f x.yaml; kubectl delete ns prod' }),
      ),
    ).toMatchObject({ status: 'queued' });
  });

  it('a session approval covers the same command only', async () => {
    const a = h.hello('agent-a', { project: P });
    const push = req({
      action: 'git_push',
      command: 'git push origin main',
      target: 'origin/main',
    });
    const q = await h.engine.request(a, push);
    const out = h.engine.admin.call('decide', {
      requestId: q.requestId,
      decision: 'approve',
      scope: 'session',
    });
    expect(out.grants).toMatchObject([{ kind: 'session' }]);
    expect(await h.engine.request(a, push)).toMatchObject({ decidedBy: 'grant' });
    expect(
      await h.engine.request(
        a,
        req({ action: 'git_push', command: 'git push --force origin prod', target: 'origin/prod' }),
      ),
    ).toMatchObject({ status: 'queued' });
    expect(
      h.engine.classify(a, { action: 'git_push', command: 'git push --force origin prod' }).tier,
    ).toBe('ask');
  });

  it('an envelope covers the same command only', async () => {
    const a = h.hello('agent-a', { project: P });
    const q = await h.engine.request(a, req({ command: 'kubectl apply -f k8s/prod.yaml' }));
    h.engine.admin.call('decide', {
      requestId: q.requestId,
      decision: 'approve',
      scope: 'once',
      envelope: { minutes: 10 },
    });
    expect(
      await h.engine.request(a, req({ command: 'kubectl apply -f k8s/prod.yaml' })),
    ).toMatchObject({ decidedBy: 'grant' });
    expect(await h.engine.request(a, req({ command: 'kubectl delete ns prod' }))).toMatchObject({
      status: 'queued',
    });
  });

  it('a late approval with a session grant audits both grants', async () => {
    const a = h.hello('agent-a', { project: P });
    const pending = Promise.resolve(
      h.engine.request(a, req({ command: 'make deploy', wait: true, timeoutMs: 1000 })),
    );
    h.clock.advance(1000);
    await flush();
    const timedOut = await pending;
    expect(timedOut.status).toBe('timed_out');
    const out = h.engine.admin.call('decide', {
      requestId: timedOut.requestId,
      decision: 'approve',
      scope: 'session',
    });
    expect(out.grants!.map((g) => g.kind)).toEqual(['late_approval', 'session']);
    await h.work.durable();
    const [approved] = h.store.queryAudit({ type: 'request.approved', limit: 5 });
    expect(approved!.data.grants).toEqual(
      out.grants!.map((g) => ({ grantId: g.grantId, kind: g.kind, description: g.description })),
    );
    const issued = h.store.queryAudit({ type: 'grant.issued', limit: 5 });
    expect(issued).toHaveLength(2);
  });
});
