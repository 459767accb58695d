import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../../main/store/database';
import { migrations } from '../../../../main/store/migrations/index';
import { RequestsRepository } from '../../../../main/store/requests-repository';
import { idOrdinal, timeOrderedIds } from '../../../../main/engine/kernel/ids';
import { toRequestRecord } from '../../../../main/engine/kernel/records';
import type { OpenRequestQuery, RequestRow } from '../../../../main/engine/requests/requests-store';
import { byRequestAttentionAt } from '../../../../shared/queue-order';
import { LONG_WAIT_MS } from '../../../../shared/request-picture/inferred-urgency';
import type { Urgency } from '../../../../shared/domain';

// The review queue's attention order, paged through the index of migration 024, against the
// order every surface sorts by (shared/queue-order.ts byRequestAttentionAt): the same rows in
// the same order, page after page, whatever the page size, connections and filters.

let dir: string;
let db: Database.Database;
let repo: RequestsRepository;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-attention-'));
});
afterEach(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

const NOW = 1_780_000_000_000;
const SESSIONS = ['ses-0', 'ses-1', 'ses-2', 'ses-3', 'ses-4'];
const URGENCIES: Urgency[] = ['low', 'normal', 'high'];
/** What the inference looks at: plain, production, a force push, a push to main, a risky rule. */
const KINDS = [
  { action: 'run_command', command: 'make test', rule: 'default:run_command' },
  { action: 'deploy', target: 'prod-eu', rule: 'default:deploy' },
  { action: 'git_push', command: 'git push --force origin feature', rule: 'default:git_push' },
  { action: 'git_push', command: 'git push origin main', rule: 'default:git_push' },
  { action: 'read_file', target: '/home/me/.ssh/id_rsa', rule: 'default:secret_path' },
] as const;

/** A small deterministic generator, so that a failure replays. */
function numbers(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

/**
 * `count` waiting requests (and some settled ones) of every kind, urgency, status and
 * session, filed around the time a blocked agent's request turns urgent, some at the same ms.
 */
function fill(count: number, seed = 1): RequestRow[] {
  const random = numbers(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  let clock = NOW - 3_600_000;
  const ids = timeOrderedIds(
    () => clock++,
    () => 0,
  );
  const rows: RequestRow[] = [];
  for (let i = 0; i < count; i++) {
    // Within 10 minutes either side of the flip, on a coarse grid so that times repeat.
    const createdAt = NOW - LONG_WAIT_MS + Math.round((random() - 0.5) * 40) * 30_000;
    const status = pick(['pending', 'pending', 'timed_out', 'approved', 'denied'] as const);
    const kind = pick(KINDS);
    const row: RequestRow = {
      requestId: ids('req'),
      sessionId: pick(SESSIONS),
      agent: pick(['agent-a', 'agent-b']),
      description: `request ${i}`,
      urgency: pick(URGENCIES),
      fingerprint: `fp-${i}`,
      status,
      tier: 'ask',
      ruleReason: 'asked',
      createdAt,
      ...kind,
      ...(random() < 0.6 ? { timeoutAt: createdAt + 3_600_000 } : {}),
    };
    repo.insert(row);
    rows.push(row);
  }
  return rows;
}

/** Every page of the queue, `limit` at a time. */
function walk(q: Omit<OpenRequestQuery, 'limit' | 'cursor' | 'order'>, limit: number) {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const page = repo.pageOpenRequests({ ...q, order: 'attention', limit, cursor });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    seen.push(...page.items.map((r) => r.requestId));
    cursor = page.nextCursor;
    if (!cursor) return { seen, total: page.total };
  }
  throw new Error('the cursor never ended');
}

/** The queue as the dashboard and the CLI sort it. */
function expected(
  rows: RequestRow[],
  q: Omit<OpenRequestQuery, 'limit' | 'cursor' | 'order'>,
): string[] {
  const live = q.connectedSessionIds;
  return rows
    .filter((r) => r.status === 'pending' || r.status === 'timed_out')
    .filter((r) => q.agent === undefined || r.agent === q.agent)
    .filter((r) => !q.sessions || q.sessions.ids.includes(r.sessionId) === q.sessions.connected)
    .map((r) => ({
      ...toRequestRecord(r),
      agentConnected: live === undefined || live.includes(r.sessionId),
    }))
    .sort(byRequestAttentionAt(q.inferUrgencyAt))
    .map((r) => r.requestId);
}

describe('the review queue in attention order, a page at a time', () => {
  beforeEach(() => {
    db = openDatabase({ file: join(dir, 'gatehouse.db') });
    repo = new RequestsRepository(db);
  });

  it('is the order every surface sorts by, for every page size, connection set and filter', () => {
    const rows = fill(400);
    const live = ['ses-1', 'ses-3'];
    const queries: Omit<OpenRequestQuery, 'limit' | 'cursor' | 'order'>[] = [
      { inferUrgencyAt: NOW },
      { inferUrgencyAt: NOW, connectedSessionIds: live },
      { inferUrgencyAt: NOW, connectedSessionIds: [] },
      { connectedSessionIds: live },
      {},
      { inferUrgencyAt: NOW + 3 * 60_000, connectedSessionIds: live, agent: 'agent-b' },
      { inferUrgencyAt: NOW, connectedSessionIds: live, sessions: { ids: live, connected: true } },
      { inferUrgencyAt: NOW, connectedSessionIds: live, sessions: { ids: live, connected: false } },
    ];
    for (const q of queries) {
      const want = expected(rows, q);
      expect(want.length).toBeGreaterThan(20);
      for (const limit of [1, 7, 50, 1000]) {
        const { seen, total } = walk(q, limit);
        expect({ q, limit, seen }).toEqual({ q, limit, seen: want });
        expect(total).toBe(want.length);
      }
    }
  });

  it('moves a blocked request up when its agent has waited long, and back when it times out', () => {
    let clock = NOW;
    const ids = timeOrderedIds(
      () => clock++,
      () => 0,
    );
    const blocked = {
      sessionId: 'ses-0',
      agent: 'agent-a',
      action: 'run_command',
      command: 'make test',
      fingerprint: 'fp',
      status: 'pending',
      tier: 'ask',
      rule: 'default:run_command',
      ruleReason: 'asked',
      timeoutAt: NOW + 3_600_000,
    } as const;
    const waited = { ...blocked, requestId: ids('req'), description: 'normal', urgency: 'normal' };
    const high = { ...blocked, requestId: ids('req'), description: 'high', urgency: 'high' };
    repo.insert({ ...waited, urgency: 'normal', createdAt: NOW });
    repo.insert({ ...high, urgency: 'high', createdAt: NOW + 1 });
    const order = (at: number) =>
      walk({ inferUrgencyAt: at }, 1).seen.map((id) => (id === high.requestId ? 'high' : 'waited'));
    expect(order(NOW + 2)).toEqual(['high', 'waited']);
    expect(order(NOW + LONG_WAIT_MS - 1)).toEqual(['high', 'waited']);
    // Blocked for the long wait: high as well, and older.
    expect(order(NOW + LONG_WAIT_MS)).toEqual(['waited', 'high']);
    expect(walk({}, 1).seen).toEqual([high.requestId, waited.requestId]);
    // Timed out: no longer blocked, so below the blocked high one, and a long wait no longer counts.
    repo.updateRequest(waited.requestId, { status: 'timed_out' });
    expect(order(NOW + LONG_WAIT_MS)).toEqual(['high', 'waited']);
    repo.updateRequest(high.requestId, { status: 'timed_out' });
    expect(order(NOW + LONG_WAIT_MS)).toEqual(['high', 'waited']);
  });

  it('reads a page through the index: no sort of the queue, whatever its size', () => {
    fill(300);
    const plans: string[] = [];
    const prepare = db.prepare.bind(db);
    // Fresh statements, so that every one a page runs is prepared (and recorded) here.
    const fresh = new RequestsRepository(db);
    db.prepare = ((sql: string) => {
      if (sql.includes('requests_queue'))
        plans.push(
          (
            prepare(`EXPLAIN QUERY PLAN ${sql}`).all({
              blocked: 1,
              urgency: 'normal',
              ranked: 'normal',
              limit: 1,
              flipAt: NOW,
              live: '[]',
              at: 0,
              key: 0,
              agent: 'a',
              sessions: '[]',
            }) as { detail: string }[]
          )
            .map((p) => p.detail)
            .join('\n'),
        );
      return prepare(sql);
    }) as typeof db.prepare;
    try {
      let cursor: string | undefined;
      for (const live of [undefined, ['ses-1']]) {
        const first = fresh.pageOpenRequests({
          order: 'attention',
          limit: 20,
          inferUrgencyAt: NOW,
          ...(live ? { connectedSessionIds: live } : {}),
        });
        cursor = first.nextCursor;
        fresh.pageOpenRequests({
          order: 'attention',
          limit: 20,
          inferUrgencyAt: NOW,
          cursor,
          ...(live ? { connectedSessionIds: live } : {}),
        });
      }
    } finally {
      db.prepare = prepare as typeof db.prepare;
    }
    expect(plans.length).toBeGreaterThan(3);
    for (const plan of plans) {
      expect(plan).toMatch(
        /SEARCH requests USING INDEX requests_queue \(<expr>=\? AND urgency=\? AND <expr>=\?/,
      );
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
  });
});

describe('migration 024', () => {
  it('ranks the requests already waiting by the urgency inferred at their filing', () => {
    db = new Database(join(dir, 'gatehouse.db'));
    db.pragma('journal_mode = WAL');
    for (const m of migrations.filter((m) => m.version <= 23)) m.up(db);
    db.pragma('user_version = 23');
    db.prepare(
      `INSERT INTO sessions (session_id, agent, status, started_at, last_seen_at, requests_from)
       VALUES ('s', 'a', 'active', 1, 1, 0)`,
    ).run();
    const insert = db.prepare(
      `INSERT INTO requests (request_key, request_id, session_id, agent, action, description,
       urgency, command, fingerprint, status, tier, rule, rule_reason, created_at, timeout_at)
       VALUES (?, ?, 's', 'a', 'git_push', ?, 'normal', ?, 'f', ?, 'ask', 'default:git_push', 'r', ?, NULL)`,
    );
    let clock = NOW;
    const ids = timeOrderedIds(
      () => clock++,
      () => 0,
    );
    const made = [
      ['older plain push', 'git push origin feature', 'pending'],
      ['force push', 'git push --force origin feature', 'pending'],
      ['decided force push', 'git push --force origin feature', 'denied'],
    ].map(([description, command, status], i) => {
      const id = ids('req');
      insert.run(idOrdinal(id), id, description, command, status, NOW + i);
      return id;
    });
    expect(migrate(db)).toBeGreaterThan(0);
    const ranked = db
      .prepare('SELECT description, ranked_urgency FROM requests ORDER BY created_at')
      .raw()
      .all();
    expect(ranked).toEqual([
      ['older plain push', 'normal'],
      ['force push', 'high'],
      ['decided force push', null],
    ]);
    repo = new RequestsRepository(db);
    expect(walk({ inferUrgencyAt: NOW + 10 }, 1).seen).toEqual([made[1], made[0]]);
    expect(walk({}, 1).seen).toEqual([made[0], made[1]]);
  });
});
