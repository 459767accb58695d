import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../main/store/database';
import { BY_PERSON_SQL } from '../../../../main/store/decided-by-sql';

let dir: string;
let db: Database.Database;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-decided-by-'));
  db = openDatabase({ file: join(dir, 'gatehouse.db') });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('decided by a person: the SQL form of a person provenance', () => {
  it('is the condition of requests_human_decided, and the rule suggestions query uses that index', () => {
    const index = db
      .prepare(`SELECT sql FROM sqlite_master WHERE name = 'requests_human_decided'`)
      .pluck()
      .get() as string;
    expect(index).toContain(`WHERE ${BY_PERSON_SQL}`);
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT request_id FROM requests WHERE ${BY_PERSON_SQL} ORDER BY decided_at DESC`,
      )
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toContain('requests_human_decided');
  });
});
