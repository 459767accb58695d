import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineHarness } from '../../../../support/engine-harness';

const ask = (action: string, command: string) => ({
  action,
  description: `${action}: ${command}`,
  command,
  urgency: 'normal' as const,
  wait: false,
});

describe('grants.list', () => {
  let h: EngineHarness;
  beforeEach(() => (h = new EngineHarness()));
  afterEach(() => h.close());

  it('lists the grants in force, newest first, and none that ended, ran out or expired', async () => {
    const a = h.hello('agent-a');
    const b = h.hello('agent-b');
    const approve = async (
      who: typeof a,
      action: string,
      command: string,
      how: { scope?: 'once' | 'session'; envelope?: { minutes?: number; uses?: number } },
    ) => {
      const { requestId } = await h.engine.request(who, ask(action, command));
      h.engine.admin.call('decide', { requestId, decision: 'approve', scope: 'once', ...how });
      h.clock.advance(1000);
      return requestId;
    };
    const forSession = await approve(a, 'install_package', 'npm install left-pad', {
      scope: 'session',
    });
    const twoUses = await approve(a, 'deploy', 'make deploy', { envelope: { uses: 2 } });
    const tenMinutes = await approve(b, 'git_push', 'git push origin main', {
      envelope: { minutes: 10 },
    });
    const created = h.clock.now() - 1000;

    const listed = h.engine.admin.call('grants.list', { limit: 100 }).grants;
    expect(listed.map((g) => [g.agent, g.kind, g.action, g.sourceRequestId])).toEqual([
      ['agent-b', 'envelope', 'git_push', tenMinutes],
      ['agent-a', 'envelope', 'deploy', twoUses],
      ['agent-a', 'session', 'install_package', forSession],
    ]);
    expect(listed[0]).toMatchObject({
      matchers: { command: 'git push origin main' },
      expiresAt: new Date(created + 10 * 60_000).toISOString(),
      createdAt: new Date(created).toISOString(),
      spentUsd: 0,
    });
    expect(listed[0]).not.toHaveProperty('fingerprint');
    expect(listed[1]).toMatchObject({ usesLeft: 2 });

    // One agent's only.
    expect(
      h.engine.admin
        .call('grants.list', { agent: 'agent-b', limit: 100 })
        .grants.map((g) => g.agent),
    ).toEqual(['agent-b']);
    // At most `limit`, the newest.
    expect(
      h.engine.admin.call('grants.list', { limit: 1 }).grants.map((g) => g.sourceRequestId),
    ).toEqual([tenMinutes]);

    // The two uses are used up (the second ends it); ten minutes pass (the envelope expires).
    for (let i = 0; i < 2; i++)
      expect(await h.engine.request(a, ask('deploy', 'make deploy'))).toMatchObject({
        decidedBy: 'grant',
      });
    h.clock.advance(10 * 60_000);
    expect(
      h.engine.admin.call('grants.list', { limit: 100 }).grants.map((g) => g.sourceRequestId),
    ).toEqual([forSession]);
  });
});
