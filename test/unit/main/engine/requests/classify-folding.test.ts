import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineHarness } from '../../../../support/engine-harness';

const push = { action: 'git_push', description: 'push' };
const read = { action: 'read_file', description: 'read' };

describe('classify audit folding', () => {
  let h: EngineHarness;
  beforeEach(() => (h = new EngineHarness()));
  afterEach(() => h.close());

  const classified = () =>
    h.engine.admin.call('audit.query', { type: 'action.classified', limit: 100 }).events.reverse();
  const rows = () =>
    h.db.prepare(`SELECT count(*) FROM audit WHERE type = 'action.classified'`).pluck().get();

  it('counts identical classifications of a session within the window into one entry', async () => {
    const a = h.hello();
    const start = h.clock.now();
    for (let i = 0; i < 5; i++) {
      h.engine.classify(a, push);
      h.clock.advance(10_000);
    }
    await h.work.durable();

    expect(rows()).toBe(1);
    const [entry] = classified();
    expect(entry).toMatchObject({
      type: 'action.classified',
      sessionId: a.sessionId,
      agent: 'agent-a',
      at: new Date(start).toISOString(),
      data: {
        action: 'git_push',
        count: 5,
        firstAt: new Date(start).toISOString(),
        lastAt: new Date(start + 40_000).toISOString(),
      },
    });
  });

  it('starts a new entry after the window, for another action and for another session', async () => {
    const a = h.hello();
    const b = h.hello('agent-b');
    h.engine.classify(a, push);
    h.engine.classify(a, read);
    h.engine.classify(b, push);
    h.engine.classify(a, push);
    h.clock.advance(60_000);
    h.engine.classify(a, push);
    await h.work.durable();

    expect(
      classified().map((e) => [
        e.sessionId === a.sessionId ? 'a' : 'b',
        e.data.action,
        e.data.count,
      ]),
    ).toEqual([
      ['a', 'git_push', 2],
      ['a', 'read_file', undefined],
      ['b', 'git_push', undefined],
      ['a', 'git_push', undefined],
    ]);
  });

  it('records every call when the window is 0', async () => {
    h.engine.admin.call('settings.set', { key: 'audit.classifyFoldMs', value: 0 });
    const a = h.hello();
    for (let i = 0; i < 3; i++) h.engine.classify(a, push);
    await h.work.durable();
    expect(rows()).toBe(3);
  });

  it('never folds what a person decided', async () => {
    const a = h.hello();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await h.engine.request(a, { ...push, urgency: 'normal', wait: false })).requestId);
    for (const requestId of ids)
      h.engine.admin.call('decide', { requestId, decision: 'deny', scope: 'once' });
    await h.work.durable();
    const decided = h.engine.admin
      .call('audit.query', { type: 'request.denied', limit: 10 })
      .events.map((e) => e.requestId);
    expect(decided.sort()).toEqual([...ids].sort());
  });

  it('starts a new entry when the folded one is gone (pruned)', async () => {
    const a = h.hello();
    h.engine.classify(a, push);
    await h.work.durable();
    h.db.exec(`DELETE FROM audit WHERE type = 'action.classified'`);
    h.engine.classify(a, push);
    await h.work.durable();
    expect(classified().map((e) => e.data.count)).toEqual([undefined]);
  });
});
