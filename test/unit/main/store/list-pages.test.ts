import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteEngineStores } from '../../../../main/store/sqlite-engine-stores';
import { allStorePorts, EngineHarness, type AllStorePorts } from '../../../support/engine-harness';
import { allPages } from '../../../support/pages';

const req = (over: Record<string, unknown> = {}) => ({
  action: 'read_file',
  description: 'read a file',
  urgency: 'normal' as const,
  wait: false,
  ...over,
});

interface Ran {
  sql: string;
  args: unknown[];
}

/** Records every statement prepared on `db` while `fn` runs, with the values it was run with. */
function statementsOf(db: Database.Database, fn: () => void): Ran[] {
  const ran: Ran[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const stmt = prepare(sql);
    for (const method of ['all', 'get', 'iterate'] as const) {
      const original = stmt[method].bind(stmt) as (...a: unknown[]) => unknown;
      // Overwritten per statement: better-sqlite3's methods are variadic over the bound values.
      (stmt as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        ran.push({ sql, args });
        return original(...args);
      };
    }
    return stmt;
  }) as typeof db.prepare;
  try {
    fn();
  } finally {
    db.prepare = prepare as typeof db.prepare;
  }
  return ran;
}

/** The plan SQLite chose for a recorded statement, one line per step. */
function planOf(db: Database.Database, r: Ran): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${r.sql}`).all(...r.args) as { detail: string }[]).map(
    (row) => row.detail,
  );
}

/**
 * Fails when a list query would cost more as history grows: a sort of every match (a temp
 * B-tree), or a walk of a whole table that is not the newest-first walk a LIMIT stops early
 * (a filter must SEARCH an index; a count may only walk a covering index).
 */
function expectBoundedPlans(db: Database.Database, ran: Ran[], filtered: boolean): void {
  expect(ran.length).toBeGreaterThan(0);
  for (const r of ran) {
    const plan = planOf(db, r);
    const where = `${r.sql}\n${plan.join('\n')}`;
    expect(
      plan.some((l) => l.includes('TEMP B-TREE')),
      where,
    ).toBe(false);
    for (const line of plan) {
      const scan = /^SCAN (requests|audit|sessions|transcript)\b/.exec(line);
      if (!scan || line.includes('COVERING INDEX')) continue;
      // Only the unfiltered newest-first page may walk the table, and a LIMIT stops it.
      expect(filtered, where).toBe(false);
      expect(/\bLIMIT\b/.test(r.sql), where).toBe(true);
    }
  }
}

describe('paged lists', () => {
  let h: EngineHarness;
  beforeEach(() => (h = new EngineHarness()));
  afterEach(() => h.close());

  /** 30 waiting requests from two agents, 20 auto-approved ones, their audit entries. */
  async function seed() {
    const a = h.hello('agent-a');
    const b = h.hello('agent-b');
    for (let i = 0; i < 30; i++) {
      await h.engine.request(i % 2 ? a : b, req({ action: 'git_push', description: `push ${i}` }));
      h.clock.advance(10);
    }
    for (let i = 0; i < 20; i++) {
      await h.engine.request(a, req({ description: `read ${i}` }));
      h.engine.classify(a, { action: 'git_push' });
      h.clock.advance(10);
    }
    h.work.flush();
    return { a, b };
  }

  it('pending.list walks the queue in pages: every request once, in order, with a total', async () => {
    await seed();
    for (const order of ['oldest', 'newest'] as const) {
      const pages = allPages((at) =>
        h.engine.admin.call('pending.list', { order, limit: 7, ...at }),
      );
      for (const page of pages) {
        expect(page.total).toBe(30);
        expect(page.requests.length).toBeLessThanOrEqual(7);
      }
      const seen = pages.flatMap((page) => page.requests.map((r) => r.createdAt + r.requestId));
      expect(pages.length).toBe(5);
      expect(new Set(seen).size).toBe(30);
      const sorted = [...seen].sort();
      expect(seen).toEqual(order === 'oldest' ? sorted : sorted.reverse());
    }
    const onlyA = h.engine.admin.call('pending.list', {
      order: 'oldest',
      limit: 100,
      agent: 'agent-a',
    });
    expect(onlyA.total).toBe(15);
    expect(onlyA.requests.every((r) => r.agent === 'agent-a')).toBe(true);
    expect(onlyA.nextCursor).toBeUndefined();
  });

  it('requests.query, sessions.list and audit.query page with cursors and totals', async () => {
    await seed();
    const requestPages = allPages((at) =>
      h.engine.admin.call('requests.query', { limit: 8, ...at }),
    );
    for (const page of requestPages) expect(page.total).toBe(50);
    const ids = requestPages.flatMap((page) => page.requests.map((r) => r.requestId));
    expect(new Set(ids).size).toBe(50);

    const first = h.engine.admin.call('sessions.list', { status: 'all', limit: 1 });
    expect(first.total).toBe(2);
    const second = h.engine.admin.call('sessions.list', {
      status: 'all',
      limit: 1,
      cursor: first.nextCursor,
    });
    expect(second.nextCursor).toBeUndefined();
    expect(second.sessions[0]!.sessionId).not.toBe(first.sessions[0]!.sessionId);

    // The audit trail mixes its table's rows with requests that are their own entry.
    const whole = h.store.queryAudit({ limit: 1000 });
    const auditPages = allPages((at) =>
      h.engine.admin.call('audit.query', { limit: 6, withTotal: true, ...at }),
    );
    for (const page of auditPages) expect(page.total).toBe(whole.length);
    const events = auditPages.flatMap((page) => page.events);
    expect(events.map((e) => e.seq)).toEqual(whole.map((e) => e.seq));
    expect(() => h.engine.admin.call('audit.query', { limit: 5, cursor: 'x:y' })).toThrow(
      /invalid cursor/,
    );
  });

  it('audit.query takes a time range (since, until)', async () => {
    await seed();
    const all = h.store.queryAudit({ limit: 1000 });
    const mid = all[Math.floor(all.length / 2)]!.at;
    const until = h.engine.admin.call('audit.query', { limit: 1000, until: mid }).events;
    const since = h.engine.admin.call('audit.query', { limit: 1000, since: mid }).events;
    expect(until.length + since.length).toBe(all.length);
    expect(until.every((e) => e.at < mid) && since.every((e) => e.at >= mid)).toBe(true);
    expect(() => h.engine.admin.call('audit.query', { limit: 5, since: 'yesterday-ish' })).toThrow(
      /not a date/,
    );
  });

  it('status counts without reading rows', async () => {
    await seed();
    const ran = statementsOf(h.db, () => {
      expect(h.engine.admin.status()).toMatchObject({
        pending: 30,
        timedOut: 0,
        activeSessions: 2,
        agents: 2,
      });
    });
    for (const r of ran) expect(r.sql).toMatch(/COUNT\(/);
  });

  it('every first page has a plan that does not grow with history (EXPLAIN QUERY PLAN)', async () => {
    const { a } = await seed();
    const human = h.engine.admin;
    // The store prepares most statements once, as it is made: a store made while recording
    // records every later run of them (what making it ran is forgotten).
    const recorded = () => {
      let store: AllStorePorts | undefined;
      const ran = statementsOf(
        h.db,
        () => void (store = allStorePorts(createSqliteEngineStores(h.db))),
      );
      ran.length = 0;
      return { store: store!, ran };
    };
    // `filtered`: the page must SEARCH an index. A time range is not: entry times rise with
    // their numbers, so the newest-first walk that a LIMIT stops is the plan for it.
    const cases: [string, boolean, () => unknown][] = [
      ['pending.list', false, () => human.call('pending.list', { order: 'oldest', limit: 50 })],
      [
        'pending.list newest',
        false,
        () => human.call('pending.list', { order: 'newest', limit: 50 }),
      ],
      [
        'pending.list agent',
        false,
        () => human.call('pending.list', { order: 'oldest', limit: 50, agent: 'agent-a' }),
      ],
      ['requests.query', false, () => human.call('requests.query', { limit: 50 })],
      [
        'requests.query agent',
        true,
        () => human.call('requests.query', { limit: 50, agent: 'agent-a' }),
      ],
      [
        'requests.query session',
        true,
        () => human.call('requests.query', { limit: 50, sessionId: a.sessionId }),
      ],
      [
        'requests.query session and status',
        true,
        () =>
          human.call('requests.query', { limit: 50, sessionId: a.sessionId, status: ['pending'] }),
      ],
      [
        'audit.query session',
        true,
        () => human.call('audit.query', { limit: 50, sessionId: a.sessionId }),
      ],
      ['sessions.list', false, () => human.call('sessions.list', { status: 'all', limit: 50 })],
      [
        'sessions.list active',
        false,
        () => human.call('sessions.list', { status: 'active', limit: 50 }),
      ],
      ['audit.query', false, () => human.call('audit.query', { limit: 50 })],
      ['audit.query agent', true, () => human.call('audit.query', { limit: 50, agent: 'agent-a' })],
      [
        'audit.query type',
        true,
        () => human.call('audit.query', { limit: 50, type: 'action.classified' }),
      ],
      [
        'audit.query since',
        false,
        () => human.call('audit.query', { limit: 50, since: new Date(0).toISOString() }),
      ],
    ];
    for (const [name, filtered, call] of cases) {
      const first = statementsOf(h.db, () => void call());
      expect(first.length, name).toBeGreaterThan(0);
      expectBoundedPlans(h.db, first, filtered);
    }
    // What session.get and session.transcript read, all prepared once with the store: a page
    // of a session's timeline (both its sources through their session indexes, then the next
    // page from the cursor), and the session's newest requests.
    const timeline = recorded();
    const firstPage = timeline.store.pageSessionTimeline(a.sessionId, { limit: 5 });
    expect(firstPage.nextCursor).toBeDefined();
    timeline.store.pageSessionTimeline(a.sessionId, { limit: 5, cursor: firstPage.nextCursor });
    expect(timeline.ran.map((r) => r.sql).join('\n')).toMatch(/FROM transcript/);
    expectBoundedPlans(h.db, timeline.ran, true);
    // What its transcript file reads, a page per turn: its timeline and its requests oldest
    // first, each page after the last through the same indexes.
    const archive = recorded();
    const oldest = archive.store.pageSessionTimelineOldestFirst(a.sessionId, { limit: 5 });
    expect(oldest.nextCursor).toBeDefined();
    archive.store.pageSessionTimelineOldestFirst(a.sessionId, {
      limit: 5,
      cursor: oldest.nextCursor,
    });
    const filed = archive.store.pageSessionRequestsOldestFirst(a.sessionId, { limit: 2 });
    expect(filed.nextCursor).toBeDefined();
    archive.store.pageSessionRequestsOldestFirst(a.sessionId, {
      limit: 2,
      cursor: filed.nextCursor,
    });
    // Each page of requests is two statements: the session's key entries (migration 019),
    // each row looked up by key, then the tail of requests not yet indexed, a range of keys.
    expect(archive.ran).toHaveLength(2 + 4 * 2);
    for (const r of archive.ran)
      for (const line of planOf(h.db, r))
        expect(line).toMatch(
          /^(SEARCH transcript USING INDEX transcript_by_session \(session_id=\? AND id>\?\)|SEARCH k USING PRIMARY KEY \(session_id=\? AND request_key>\? AND request_key<\?\)|SEARCH r USING INTEGER PRIMARY KEY \(rowid=\?\)|SEARCH requests USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)|SCALAR SUBQUERY \d+|SCAN request_keys_mark)$/,
        );
    expectBoundedPlans(h.db, archive.ran, true);
    // A session's whole lists (its summary and archive read them) and its newest requests.
    const whole = recorded();
    whole.store.listSessionRequests(a.sessionId);
    whole.store.listTranscript(a.sessionId);
    whole.store.listNewestSessionRequests(a.sessionId, 50);
    // (Two statements for each list of requests: the key entries and the tail.)
    expect(whole.ran).toHaveLength(5);
    // What a session's summary is made of (its end): every list and count on its indexes
    // (the first unsettled requests, a query per status, are prepared per call: below).
    whole.store.sessionSummaryFacts(a.sessionId, 50);
    expect(whole.ran).toHaveLength(13);
    // What its report reads: the start of its timeline (both sources), its counts, its usage entries.
    whole.store.firstOfSessionTimeline(a.sessionId, 50);
    whole.store.countSessionRequestsByStatus(a.sessionId);
    whole.store.forEachSessionTranscript(a.sessionId, 'usage', () => undefined);
    expect(whole.ran).toHaveLength(18);
    expectBoundedPlans(h.db, whole.ran, true);
    // …and the first requests of a session of some statuses (without `approved`: a query per
    // status; with it: its key entries and the tail), and its summary's first unsettled ones
    // (prepared per call). All of them, without statuses, are prepared with the store.
    const perCall = statementsOf(h.db, () => {
      whole.store.listFirstSessionRequests(a.sessionId, 50, ['pending', 'timed_out']);
      whole.store.listFirstSessionRequests(a.sessionId, 50, ['approved', 'denied']);
      whole.store.listFirstSessionRequests(a.sessionId, 50);
      whole.store.sessionSummaryFacts(a.sessionId, 50);
    });
    expect(perCall).toHaveLength(2 + 2 + 3);
    expectBoundedPlans(h.db, perCall, true);
    // The second page too: the cursor is a range on the same index.
    const page = human.call('audit.query', { limit: 5, agent: 'agent-a' });
    expectBoundedPlans(
      h.db,
      statementsOf(
        h.db,
        () =>
          void human.call('audit.query', { limit: 5, agent: 'agent-a', cursor: page.nextCursor }),
      ),
      true,
    );
    // A session's later requests: a range on the session's index.
    const sessionPage = human.call('requests.query', { limit: 5, sessionId: a.sessionId });
    expect(sessionPage.nextCursor).toBeDefined();
    expectBoundedPlans(
      h.db,
      statementsOf(
        h.db,
        () =>
          void human.call('requests.query', {
            limit: 5,
            sessionId: a.sessionId,
            cursor: sessionPage.nextCursor,
          }),
      ),
      true,
    );
  });
});
