import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditQuery } from '../../../../main/engine/kernel/kernel-store';
import { EngineHarness } from '../../../support/engine-harness';
import { AuditChainRepository } from '../../../../main/store/audit-chain-repository';

const req = (over: Record<string, unknown> = {}) => ({
  action: 'read_file',
  description: 'read a file',
  urgency: 'normal' as const,
  wait: false,
  ...over,
});

/** The audit table's own rows of one type (not the trail, which adds request rows). */
const storedOfType = (h: EngineHarness, type: string) =>
  h.db.prepare('SELECT request_id FROM audit WHERE type = ?').pluck().all(type);

describe('audit trail', () => {
  let h: EngineHarness;
  beforeEach(() => (h = new EngineHarness()));
  afterEach(() => h.close());

  it('reads an auto-approved request as its own request.filed entry, in sequence', async () => {
    const a = h.hello('agent-a');
    const auto = await h.engine.request(a, req());
    h.engine.classify(a, { action: 'git_push' });
    const pending = await h.engine.request(a, req({ action: 'git_push', description: 'push' }));
    h.work.flush();

    const trail = h.store.queryAudit({ limit: 50 });
    expect(trail.map((e) => [e.type, e.requestId])).toEqual([
      ['request.filed', pending.requestId],
      ['action.classified', undefined],
      ['request.filed', auto.requestId],
      ['session.started', undefined],
    ]);
    const seqs = trail.map((e) => e.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect([...seqs].sort((x, y) => y - x)).toEqual(seqs);
    expect(trail[2]).toMatchObject({
      sessionId: a.sessionId,
      agent: 'agent-a',
      data: {
        action: 'read_file',
        tier: 'auto',
        rule: 'default:read_file',
        status: 'approved',
        decidedBy: 'policy',
        urgency: 'normal',
      },
    });
    expect(trail[0]!.data).toMatchObject({ action: 'git_push', tier: 'ask', status: 'pending' });
    // Only the pending request, whose row will change, has a row in the audit table.
    expect(storedOfType(h, 'request.filed')).toEqual([pending.requestId]);
  });

  it('applies every filter to both kinds of entry, as one sequence would', async () => {
    const a = h.hello('agent-a');
    const b = h.hello('agent-b');
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const who = i % 2 ? b : a;
      ids.push((await h.engine.request(who, req({ paths: [`src/${i}.ts`] }))).requestId);
      if (i === 2) ids.push((await h.engine.request(who, req({ action: 'deploy' }))).requestId);
      h.engine.classify(who, { action: 'read_file' });
      h.clock.advance(1000);
    }
    h.work.flush();
    const store = h.store;
    const all = store.queryAudit({ limit: 1000 });
    expect(all.filter((e) => e.type === 'request.filed')).toHaveLength(7);
    const middle = all[Math.floor(all.length / 2)]!;

    const queries: Omit<AuditQuery, 'limit'>[] = [
      {},
      { type: 'request.filed' },
      { type: 'action.classified' },
      { agent: 'agent-b' },
      { sessionId: a.sessionId, type: 'request.filed' },
      { requestId: ids[3] },
      { requestId: ids[3], agent: 'agent-a' },
      { afterSeq: middle.seq },
      { afterSeq: middle.seq, type: 'request.filed', agent: 'agent-a' },
      { sinceMs: Date.parse(middle.at) },
    ];
    for (const q of queries) {
      const expected = all.filter(
        (e) =>
          (q.type === undefined || e.type === q.type) &&
          (q.agent === undefined || e.agent === q.agent) &&
          (q.sessionId === undefined || e.sessionId === q.sessionId) &&
          (q.requestId === undefined || e.requestId === q.requestId) &&
          (q.afterSeq === undefined || e.seq > q.afterSeq) &&
          (q.sinceMs === undefined || Date.parse(e.at) >= q.sinceMs),
      );
      expect(expected.length, JSON.stringify(q)).toBeGreaterThan(0);
      for (const limit of [1, 3, 1000]) {
        expect(store.queryAudit({ ...q, limit }), JSON.stringify({ ...q, limit })).toEqual(
          expected.slice(0, limit),
        );
      }
    }
  });

  /**
   * The audit chain reads the trail oldest first through entriesAfter, which reads only the
   * columns a request's entry shows: it must give exactly the entries the trail's pages do.
   */
  it('reads the same entries for the audit chain as its pages show, oldest first', async () => {
    const a = h.hello('agent-a', { project: '/work/p' });
    const b = h.hello('agent-b');
    await h.engine.request(a, req({ urgency: 'high', paths: ['src/a.ts'] }));
    const asked = await h.engine.request(a, req({ action: 'git_push', description: 'push' }));
    h.engine.admin.call('decide', {
      requestId: asked.requestId,
      decision: 'approve',
      scope: 'always',
    });
    // Approved at once by the rule just made: a request row that is its own entry.
    await h.engine.request(a, req({ action: 'git_push', description: 'push again' }));
    await h.engine.request(b, req({ action: 'deploy', description: 'deploy' }));
    h.engine.classify(b, { action: 'read_file' });
    for (let i = 0; i < 5; i++) await h.engine.request(b, req({ urgency: 'low' }));
    h.work.flush();

    const pages = h.store.queryAudit({ limit: 1000 }).reverse();
    const byRule = pages.find((e) => e.type === 'request.filed' && e.data?.decidedBy === 'rule');
    expect(byRule, JSON.stringify(pages)).toBeDefined();
    const chain = new AuditChainRepository(h.db);
    expect(chain.entriesAfter(0, 1000)).toEqual(pages);
    // In pages of 3 from each place: the same sequence.
    for (const from of pages) {
      expect(chain.entriesAfter(from.seq, 3)).toEqual(
        pages.filter((e) => e.seq > from.seq).slice(0, 3),
      );
    }
  });

  it('numbers on after a restart, above request entries as well as audit rows', async () => {
    const a = h.hello('agent-a');
    const filed = await h.engine.request(a, req());
    h.work.flush();
    const [newest] = h.store.queryAudit({ limit: 1 });
    expect(newest).toMatchObject({ type: 'request.filed', requestId: filed.requestId });

    h.restart();
    h.engine.classify({ sessionId: a.sessionId, agent: 'agent-a' }, { action: 'read_file' });
    h.work.flush();
    const [after] = h.store.queryAudit({ limit: 1 });
    expect(after!.type).toBe('action.classified');
    expect(after!.seq).toBe(newest!.seq + 1);
  });

  it('leaves no entry behind when the unit that filed the request rolls back', async () => {
    const a = h.hello('agent-a');
    const store = h.store;
    // The row's insert fails after its audit number was taken, as a full disk would.
    h.db.exec(
      "CREATE TEMP TRIGGER full BEFORE INSERT ON requests BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    );
    expect(() => h.engine.request(a, req())).toThrow('disk full');
    h.db.exec('DROP TRIGGER full');
    const filed = await h.engine.request(a, req());
    h.work.flush();
    const entries = store.queryAudit({ limit: 10, type: 'request.filed' });
    expect(entries.map((e) => e.requestId)).toEqual([filed.requestId]);
  });
});
