import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineHarness } from '../../../../support/engine-harness';

/**
 * A project's `.gatehouse.toml` with `allow_auto_promotion = false` keeps its ladder where it
 * is. The engine asks the file only when the ladder would move (a person's decision, a run
 * that ends), never on the calls every agent makes (`hello`, `check`): this is the question
 * still being asked, and answered from the file, where it matters.
 */
describe('automation ladder: a project file that forbids automatic level changes', () => {
  let h: EngineHarness;
  beforeEach(() => (h = new EngineHarness()));
  afterEach(() => h.close());

  /** A session in `dir` whose ladder needs one more approval to reach level 2. */
  const oneApprovalFromLevelTwo = (dir: string, key: string) => {
    const caller = h.hello('agent-a', { project: dir, sessionKey: key });
    const project = h.store.getSession(caller.sessionId)!.project;
    h.guards.ladders.state(project).metrics = {
      totalRuns: 50,
      successfulRuns: 50,
      falsePositives: 0,
      missedCriticalBugs: 0,
      decisions: 9,
      approvals: 9,
    };
    return { caller, project };
  };

  const approveOnePush = async (caller: { sessionId: string; agent: string }) => {
    const filed = await h.engine.request(caller, {
      action: 'git_push',
      description: 'push',
      urgency: 'normal',
      wait: false,
    });
    h.engine.admin.call('decide', {
      requestId: filed.requestId,
      decision: 'approve',
      scope: 'once',
    });
    await h.work.durable();
  };

  it('holds the level where the file says so, and only there', async () => {
    const frozen = oneApprovalFromLevelTwo(
      h.project('[automation]\nallow_auto_promotion = false\n'),
      'frozen',
    );
    const free = oneApprovalFromLevelTwo(h.project('[automation]\n'), 'free');

    await approveOnePush(frozen.caller);
    await approveOnePush(free.caller);

    expect(h.guards.ladders.state(frozen.project).level).toBe(1);
    expect(h.guards.ladders.state(free.project).level).toBe(2);
    expect(h.guards.ladders.view(frozen.project).metrics.decisions).toBe(10);
  });

  it('a file that turns broken freezes the ladder too (it cannot be read, so it is not trusted)', async () => {
    const dir = h.project('[automation]\n');
    const { caller, project } = oneApprovalFromLevelTwo(dir, 'broken');
    const filed = await h.engine.request(caller, {
      action: 'git_push',
      description: 'push',
      urgency: 'normal',
      wait: false,
    });
    writeFileSync(join(dir, '.gatehouse.toml'), 'this is [not toml');
    h.engine.admin.call('decide', {
      requestId: filed.requestId,
      decision: 'approve',
      scope: 'once',
    });
    await h.work.durable();
    expect(h.guards.ladders.state(project).level).toBe(1);
  });
});
