import Database from 'better-sqlite3';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../main/store/database';
import { migrations } from '../../../../main/store/migrations/index';
import { migrate } from '../../../../main/store/database';
import { RequestsRepository } from '../../../../main/store/requests-repository';
import { TAIL_ROWS } from '../../../../main/store/request-key-index';
import { timeOrderedIds } from '../../../../main/engine/kernel/ids';
import type { RequestRow } from '../../../../main/engine/requests/requests-store';
import type { RequestStatus } from '../../../../shared/domain';
import { seedLongSession } from '../../../support/seed-session';

/**
 * A session's and an agent's requests are found through key tables written in bulk a chunk of
 * TAIL_ROWS requests at a time (when idle, or inline past the cap), plus a walk of the tail not
 * yet written (main/store/request-key-index.ts).
 * Every read is compared with the whole table walked in JS, with the tail empty, partly full
 * and spanning several bulk writes, and after the writes that bypass the engine (retention's
 * deletes, an insert below the mark, a moved row).
 */

let dir: string;
let db: Database.Database;
let repo: RequestsRepository;
/** The tail's cap in these tests: a few chunks, so that filing reaches it. */
const CAP = 3 * TAIL_ROWS;
let clock = 1_760_000_000_000;
let ids = timeOrderedIds(() => clock, randomInt);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-key-index-'));
  db = openDatabase({ file: join(dir, 'gatehouse.db') });
  repo = new RequestsRepository(db, CAP);
  ids = timeOrderedIds(() => clock, randomInt);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const SESSIONS = ['ses-a', 'ses-b', 'ses-c', 'ses-d'];
const STATUSES: RequestStatus[] = ['approved', 'approved', 'denied', 'approved', 'pending'];

/** Files `n` requests round the sessions (agent-1 has a and b, agent-2 c and d). */
function file(n: number): void {
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      clock += 7;
      const sessionId = SESSIONS[randomInt(SESSIONS.length)]!;
      const row: RequestRow = {
        requestId: ids('req'),
        sessionId,
        agent: sessionId < 'ses-c' ? 'agent-1' : 'agent-2',
        action: i % 3 ? 'read_file' : 'git_push',
        description: `request ${i}`,
        urgency: 'normal',
        fingerprint: `fp-${i}`,
        status: STATUSES[i % STATUSES.length]!,
        tier: 'auto',
        rule: 'default:auto',
        ruleReason: 'test',
        createdAt: clock,
      };
      repo.insert(row);
    }
  })();
}

/** The ground truth: every request, walked in key order without the key tables. */
const walk = (
  where: (r: Pick<RequestRow, 'sessionId' | 'agent' | 'action' | 'status'>) => boolean,
) =>
  (
    db
      .prepare(
        `SELECT request_id, request_key, session_id AS sessionId, agent, action, status
         FROM requests NOT INDEXED`,
      )
      .all() as {
      request_id: string;
      request_key: number;
      sessionId: string;
      agent: string;
      action: string;
      status: RequestStatus;
    }[]
  )
    .filter(where)
    .sort((a, b) => a.request_key - b.request_key)
    .map((r) => r.request_id);

const tailSize = () =>
  db
    .prepare(
      'SELECT COUNT(*) FROM requests WHERE request_key > (SELECT through FROM request_keys_mark)',
    )
    .pluck()
    .get() as number;

/** Pages through a session newest first and oldest first, `limit` at a time. */
function pagedSession(sessionId: string, limit: number): { newest: string[]; oldest: string[] } {
  const newest: string[] = [];
  let before: number | undefined;
  for (;;) {
    const page = repo.pageForSession(sessionId, limit, before);
    newest.push(...page.map((p) => p.row.requestId));
    if (page.length < limit) break;
    before = page[page.length - 1]!.key;
  }
  const oldest: string[] = [];
  let after: number | undefined;
  for (;;) {
    const page = repo.pageForSessionAfter(sessionId, limit, after);
    oldest.push(...page.map((p) => p.row.requestId));
    if (page.length < limit) break;
    after = page[page.length - 1]!.key;
  }
  return { newest, oldest };
}

/** Pages through requests.query, newest first; its total from the first page. */
function queried(q: Omit<Parameters<RequestsRepository['queryRequests']>[0], 'limit'>) {
  const seen: string[] = [];
  let cursor: string | undefined;
  let total: number | undefined;
  do {
    const page = repo.queryRequests({ ...q, limit: 7, ...(cursor ? { cursor } : {}) });
    total ??= page.total;
    seen.push(...page.items.map((r) => r.requestId));
    cursor = page.nextCursor;
  } while (cursor);
  return { ids: seen.reverse(), total };
}

function expectEveryReadMatchesTheWalk(): void {
  for (const sessionId of SESSIONS) {
    const truth = walk((r) => r.sessionId === sessionId);
    expect(repo.listSessionRequests(sessionId).map((r) => r.requestId)).toEqual(truth);
    expect(repo.countForSession(sessionId)).toBe(truth.length);
    expect(repo.countSessionRequestsByStatus(sessionId).total).toBe(truth.length);
    for (const limit of [1, 5, 64]) {
      const { newest, oldest } = pagedSession(sessionId, limit);
      expect(newest).toEqual([...truth].reverse());
      expect(oldest).toEqual(truth);
    }
    expect(repo.listNewestSessionRequests(sessionId, 9).map((r) => r.requestId)).toEqual(
      truth.slice(-9).reverse(),
    );
    expect(repo.listFirstSessionRequests(sessionId, 11).map((r) => r.requestId)).toEqual(
      truth.slice(0, 11),
    );
    const approvedOrDenied = walk(
      (r) => r.sessionId === sessionId && (r.status === 'approved' || r.status === 'denied'),
    );
    expect(
      repo
        .listFirstSessionRequests(sessionId, 10_000, ['approved', 'denied'])
        .map((r) => r.requestId),
    ).toEqual(approvedOrDenied);
    expect(
      repo.listFirstSessionRequests(sessionId, 3, ['approved']).map((r) => r.requestId),
    ).toEqual(walk((r) => r.sessionId === sessionId && r.status === 'approved').slice(0, 3));
    expect(queried({ sessionId })).toEqual({ ids: truth, total: truth.length });
    const pushes = walk((r) => r.sessionId === sessionId && r.action === 'git_push');
    expect(queried({ sessionId, action: 'git_push' })).toEqual({
      ids: pushes,
      total: pushes.length,
    });
  }
  for (const agent of ['agent-1', 'agent-2', 'nobody']) {
    const truth = walk((r) => r.agent === agent);
    expect(queried({ agent })).toEqual({ ids: truth, total: truth.length });
    const denied = walk((r) => r.agent === agent && r.status === 'denied');
    expect(queried({ agent, status: ['denied'] })).toEqual({ ids: denied, total: denied.length });
    const inB = walk((r) => r.agent === agent && r.sessionId === 'ses-b');
    expect(queried({ agent, sessionId: 'ses-b' })).toEqual({ ids: inB, total: inB.length });
  }
  const all = walk(() => true);
  expect(queried({})).toEqual({ ids: all, total: all.length });
  // The key tables hold exactly the requests up to the mark.
  const indexed = db
    .prepare(
      'SELECT COUNT(*) FROM requests WHERE request_key <= (SELECT through FROM request_keys_mark)',
    )
    .pluck()
    .get();
  expect(db.prepare('SELECT COUNT(*) FROM session_request_keys').pluck().get()).toBe(indexed);
  expect(db.prepare('SELECT COUNT(*) FROM agent_request_keys').pluck().get()).toBe(indexed);
}

describe('request key tables', () => {
  it('answer every session and agent read as a walk of the table, whatever the tail holds', () => {
    expectEveryReadMatchesTheWalk(); // empty
    file(10);
    expect(tailSize()).toBe(10);
    expectEveryReadMatchesTheWalk(); // all in the tail
    file(TAIL_ROWS * 2 + 37);
    // Under the cap nothing is written as requests are filed: the idle indexer writes chunks.
    expect(tailSize()).toBe(10 + TAIL_ROWS * 2 + 37);
    expect(repo.tailWantsIndexing()).toBe(true);
    expectEveryReadMatchesTheWalk();
    // A chunk at a time, the oldest first, until less than a chunk is left.
    expect(repo.indexTailChunk()).toBe(true);
    expect(tailSize()).toBe(10 + TAIL_ROWS + 37);
    expectEveryReadMatchesTheWalk();
    expect(repo.indexTailChunk()).toBe(false);
    expect(tailSize()).toBe(47);
    expect(repo.tailWantsIndexing()).toBe(false);
    expectEveryReadMatchesTheWalk();
    // A repository opened on the same file counts the tail it finds and goes on from there:
    // the filing that takes the tail to the cap writes a chunk of it inline.
    repo = new RequestsRepository(db, CAP);
    file(CAP - 1 - tailSize());
    expect(tailSize()).toBe(CAP - 1);
    file(1);
    expect(tailSize()).toBe(CAP - TAIL_ROWS);
    expectEveryReadMatchesTheWalk();
  });

  it('stay true when rows are deleted, inserted below the mark or moved, bypassing the engine', () => {
    file(TAIL_ROWS + 20);
    repo.indexTailChunk();
    const indexed = walk((r) => r.sessionId === 'ses-a');
    // Retention deletes by key (some of them in the key tables, some in the tail).
    const del = db.prepare('DELETE FROM requests WHERE request_id = ?');
    for (const id of indexed.filter((_, i) => i % 2 === 0)) del.run(id);
    expectEveryReadMatchesTheWalk();
    // A row inserted with a key at or below the mark (not something the engine makes).
    db.prepare(
      `INSERT INTO requests (request_key, request_id, session_id, agent, action, description,
       urgency, fingerprint, status, tier, rule, rule_reason, created_at)
       VALUES (5, 'req-0000000005', 'ses-c', 'agent-2', 'read_file', 'old', 'normal', 'f',
       'approved', 'auto', 'r', 'why', 1)`,
    ).run();
    expectEveryReadMatchesTheWalk();
    // A row moved to another session and agent, one indexed and one in the tail.
    const move = db.prepare(
      `UPDATE requests SET session_id = 'ses-d', agent = 'agent-2' WHERE request_id = ?`,
    );
    const b = walk((r) => r.sessionId === 'ses-b');
    move.run(b[0]);
    move.run(b[b.length - 1]);
    expectEveryReadMatchesTheWalk();
  });

  it('past the cap, are written in the transaction of the request that fills it: a rollback undoes both', () => {
    file(CAP - 1);
    const mark = () => db.prepare('SELECT through FROM request_keys_mark').pluck().get();
    const before = mark();
    expect(() =>
      db.transaction(() => {
        file(1); // takes the tail to the cap: a chunk is written inside this transaction
        expect(tailSize()).toBe(CAP - TAIL_ROWS);
        throw new Error('the batch fails');
      })(),
    ).toThrow('the batch fails');
    expect(mark()).toBe(before);
    expect(tailSize()).toBe(CAP - 1);
    expectEveryReadMatchesTheWalk();
  });

  it('a chunk that fails inline leaves the request it rode on filed, and the tail as it was', () => {
    file(CAP - 1);
    // A chunk that cannot be written (here: its last statement is refused).
    db.exec(`CREATE TRIGGER refuse_chunks BEFORE UPDATE ON request_keys_mark
      BEGIN SELECT RAISE(ABORT, 'chunk refused'); END`);
    const before = db.prepare('SELECT COUNT(*) FROM requests').pluck().get() as number;
    expect(() => file(1)).not.toThrow();
    expect(db.prepare('SELECT COUNT(*) FROM requests').pluck().get()).toBe(before + 1);
    expect(tailSize()).toBe(CAP);
    expect(db.prepare('SELECT COUNT(*) FROM session_request_keys').pluck().get()).toBe(0);
  });

  it('a history seeded a session at a time leaves no more in the tail than the daemon would', () => {
    // Benchmarks seed a thousand short sessions; left all in the tail, every read of a
    // session walked the whole table, which the daemon never leaves to walk.
    for (let i = 0; i < 20; i++)
      seedLongSession(db, { startedAt: clock + i * 1_000_000, requests: 100, logs: 0 });
    const tail = db
      .prepare(
        'SELECT COUNT(*) FROM requests WHERE request_key > (SELECT through FROM request_keys_mark)',
      )
      .pluck()
      .get() as number;
    expect(db.prepare('SELECT COUNT(*) FROM requests').pluck().get()).toBeGreaterThan(
      2 * TAIL_ROWS,
    );
    expect(tail).toBeLessThan(TAIL_ROWS);
  });

  it('019 moves every stored request into the key tables and drops the two indexes', () => {
    db.close();
    rmSync(join(dir, 'gatehouse.db'));
    db = new Database(join(dir, 'gatehouse.db'));
    for (const m of migrations.filter((m) => m.version <= 18)) m.up(db);
    db.pragma('user_version = 18');
    const seeded = seedLongSession(db, { startedAt: 1_750_000_000_000, requests: 900, logs: 0 });
    expect(migrate(db)).toBe(migrations.filter((m) => m.version > 18).length);
    repo = new RequestsRepository(db);
    expect(tailSize()).toBe(0);
    for (const sessionId of [seeded.sessionId, seeded.otherSessionId]) {
      const truth = db
        .prepare('SELECT request_id FROM requests WHERE session_id = ? ORDER BY request_key')
        .pluck()
        .all(sessionId);
      expect(repo.listSessionRequests(sessionId).map((r) => r.requestId)).toEqual(truth);
      expect(repo.countForSession(sessionId)).toBe(truth.length);
    }
    expect(seeded.requestIds).toEqual(
      repo.listSessionRequests(seeded.sessionId).map((r) => r.requestId),
    );
    const names = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index'`).pluck().all();
    expect(names).not.toContain('requests_by_session');
    expect(names).not.toContain('requests_by_agent');
  });
});
