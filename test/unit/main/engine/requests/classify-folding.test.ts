import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FOLD_WRITE_MS } from '../../../../../main/engine/requests/classify-folding';
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
  /** The stored count of the one `action.classified` entry, read from the table itself. */
  const storedCount = () => {
    const json = h.db
      .prepare(`SELECT data_json FROM audit WHERE type = 'action.classified' ORDER BY seq`)
      .pluck()
      .all() as string[];
    return json.map((j) => (JSON.parse(j) as { count?: number }).count ?? 1);
  };

  it('writes nothing for a repeat: its answer waits for no commit, its count follows within the write delay', async () => {
    const a = h.hello();
    h.engine.classify(a, push);
    await h.work.durable();
    for (let i = 0; i < 9; i++) h.engine.classify(a, push);
    // No batch was opened by the repeats: nothing for an answer to wait for.
    expect(h.db.inTransaction).toBe(false);
    expect(storedCount()).toEqual([1]);
    h.clock.advance(FOLD_WRITE_MS);
    await h.work.durable();
    expect(storedCount()).toEqual([10]);
  });

  it('writes the counts held in memory before audit.query answers', () => {
    const a = h.hello();
    for (let i = 0; i < 4; i++) h.engine.classify(a, push);
    expect(classified().map((e) => e.data.count)).toEqual([4]);
  });

  it('writes the counts held in memory when the engine stops, and they survive a restart', () => {
    const a = h.hello();
    for (let i = 0; i < 7; i++) h.engine.classify(a, push);
    h.restart();
    expect(storedCount()).toEqual([7]);
  });

  it("writes a closed fold's last count before the next fold of the same call starts", () => {
    const a = h.hello();
    for (let i = 0; i < 3; i++) h.engine.classify(a, push);
    // Straight past the window, before the write timer could have run.
    h.clock.set(h.clock.now() + 60_000);
    h.engine.classify(a, push);
    h.work.flush();
    expect(storedCount()).toEqual([3, 1]);
  });

  it('writes the whole count again after a rollback: the batch holding the entry is lost', () => {
    const a = h.hello();
    h.engine.classify(a, push);
    h.work.flush();
    h.engine.classify(a, read);
    h.engine.classify(a, read);
    h.engine.classify(a, push);
    // The open batch holds the read_file entry; the count of the push entry is in memory.
    h.db.prepare('ROLLBACK').run();
    h.work.flush(); // finds the batch gone: caches reload, the folds are marked unwritten
    h.clock.advance(FOLD_WRITE_MS);
    h.work.flush();
    const rowsNow = h.db
      .prepare(`SELECT data_json FROM audit WHERE type = 'action.classified' ORDER BY seq`)
      .pluck()
      .all() as string[];
    expect(rowsNow.map((j) => JSON.parse(j) as { action: string; count?: number })).toEqual([
      expect.objectContaining({ action: 'git_push', count: 2 }),
      expect.objectContaining({ action: 'read_file', count: 2 }),
    ]);
  });

  it("gives a pruned entry's unwritten calls a new entry, without those the pruned one held", () => {
    const a = h.hello();
    for (let i = 0; i < 3; i++) h.engine.classify(a, push);
    h.clock.advance(FOLD_WRITE_MS);
    h.work.flush();
    h.db.exec(`DELETE FROM audit WHERE type = 'action.classified'`);
    h.engine.classify(a, push);
    h.engine.classify(a, push);
    expect(classified().map((e) => e.data.count)).toEqual([2]);
  });
  it('keeps a count the store refused in memory, without throwing from its timer, and writes it on the next try', async () => {
    let refuse = 1;
    const failing = new EngineHarness((stores) => ({
      ...stores,
      work: {
        ...stores.work,
        updateAuditData: (seq, data) => {
          if (refuse-- > 0) throw Object.assign(new Error('disk full'), { code: 'SQLITE_FULL' });
          return stores.work.updateAuditData(seq, data);
        },
      },
    }));
    try {
      const a = failing.hello();
      for (let i = 0; i < 6; i++) failing.engine.classify(a, push);
      failing.work.flush();
      // The first try is refused inside the timer; the next one writes the whole count.
      expect(() => failing.clock.advance(FOLD_WRITE_MS)).not.toThrow();
      failing.clock.advance(FOLD_WRITE_MS);
      failing.work.flush();
      const counts = (
        failing.db
          .prepare(`SELECT data_json FROM audit WHERE type = 'action.classified'`)
          .pluck()
          .all() as string[]
      ).map((j) => (JSON.parse(j) as { count?: number }).count ?? 1);
      expect(counts).toEqual([6]);
    } finally {
      await failing.close();
    }
  });
});
