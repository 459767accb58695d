import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RequestStatus, WAITING_STATUSES, isWaitingForYou } from '../../../../shared/domain';
import { openDatabase } from '../../../../main/store/database';
import { NOT_WAITING_SQL, WAITING_SQL } from '../../../../main/store/waiting-sql';

let dir: string;
let db: Database.Database;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-waiting-'));
  db = openDatabase({ file: join(dir, 'gatehouse.db') });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The partial indexes over requests whose condition is "waiting for a person". */
const waitingIndexes = (): { name: string; sql: string }[] =>
  (
    db
      .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'requests'`)
      .all() as { name: string; sql: string | null }[]
  ).flatMap((r) => (r.sql?.includes("'timed_out'") ? [{ name: r.name, sql: r.sql }] : []));

describe('waiting for a person: one definition', () => {
  it('isWaitingForYou holds for exactly the waiting statuses', () => {
    const waiting = RequestStatus.options.filter((s) => isWaitingForYou(s));
    expect(waiting).toEqual([...WAITING_STATUSES]);
    expect(isWaitingForYou('queued')).toBe(false);
  });

  it('the SQL fragment selects exactly the rows isWaitingForYou accepts', () => {
    const insert = db.prepare(
      `INSERT INTO requests (request_key, request_id, session_id, agent, action, description,
       urgency, fingerprint, status, tier, rule, rule_reason, created_at)
       VALUES (?, ?, 's', 'a', 'x', 'd', 'normal', 'f', ?, 'ask', 'default:x', 'r', 1)`,
    );
    RequestStatus.options.forEach((status, i) => insert.run(i + 1, `req-${status}`, status));
    const pick = (where: string) =>
      db.prepare(`SELECT status FROM requests WHERE ${where} ORDER BY status`).pluck().all();
    const all = [...RequestStatus.options].sort();
    expect(pick(WAITING_SQL)).toEqual(all.filter((s) => isWaitingForYou(s)));
    expect(pick(NOT_WAITING_SQL)).toEqual(all.filter((s) => !isWaitingForYou(s)));
  });

  it('is the condition of the partial indexes, so queries written with it use them', () => {
    const indexes = waitingIndexes();
    expect(indexes.map((i) => i.name).sort()).toEqual([
      'requests_open',
      'requests_queue',
      'requests_waiting',
    ]);
    for (const index of indexes) expect(index.sql).toContain(`WHERE ${WAITING_SQL}`);
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN SELECT COUNT(*) FROM requests WHERE ${WAITING_SQL}`)
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/requests_(open|waiting)/);
  });
});
