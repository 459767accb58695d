import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../main/store/database';
import { migrations } from '../../../main/store/migrations/index';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-migrations-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A database as version `version` of Gatehouse left it. */
function databaseAt(version: number): Database.Database {
  const db = new Database(join(dir, 'gatehouse.db'));
  db.pragma('journal_mode = WAL');
  for (const m of migrations.filter((m) => m.version <= version)) m.up(db);
  db.pragma(`user_version = ${version}`);
  return db;
}

const tableSql = (db: Database.Database, name: string) =>
  db.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).pluck().get(name) as string;

describe('migrations', () => {
  it('bring a new database to the latest version, and a second run changes nothing', () => {
    const db = openDatabase({ file: join(dir, 'gatehouse.db') });
    const latest = migrations[migrations.length - 1]!.version;
    expect(db.pragma('user_version', { simple: true })).toBe(latest);
    expect(migrate(db)).toBe(0);
    db.close();
  });

  it('003 keeps every audit, transcript and spend row, and numbering goes on after the last', () => {
    const db = databaseAt(2);
    const audit = db.prepare(
      `INSERT INTO audit (at, type, session_id, data_json) VALUES (?, ?, 'ses-1', '{}')`,
    );
    for (let i = 1; i <= 5; i++) audit.run(i, `type-${i}`);
    db.prepare(
      `INSERT INTO transcript (session_id, at, kind, text) VALUES ('ses-1', 1, 'log', 'read a file')`,
    ).run();
    db.prepare(
      `INSERT INTO spend_ledger (at, day, session_id, agent, model, input_tokens, output_tokens,
       cost_usd, price_source) VALUES (1, '2026-11-22', 'ses-1', 'a', 'm', 10, 5, 0.25, 'table')`,
    ).run();
    expect(tableSql(db, 'audit')).toMatch(/AUTOINCREMENT/);

    expect(migrate(db)).toBe(migrations.length - 2);

    for (const table of ['audit', 'transcript', 'spend_ledger']) {
      expect(tableSql(db, table)).not.toMatch(/AUTOINCREMENT/i);
    }
    expect(db.prepare(`SELECT name FROM sqlite_sequence`).pluck().all()).not.toContain('audit');
    expect(db.prepare(`SELECT seq, type FROM audit ORDER BY seq`).all()).toEqual(
      [1, 2, 3, 4, 5].map((i) => ({ seq: i, type: `type-${i}` })),
    );
    expect(db.prepare(`SELECT text FROM transcript`).pluck().all()).toEqual(['read a file']);
    expect(db.prepare(`SELECT cost_usd FROM spend_ledger`).pluck().get()).toBe(0.25);
    // The indexes came back with their tables.
    const indexes = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`)
      .pluck()
      .all();
    expect(indexes).toEqual(
      expect.arrayContaining([
        'transcript_by_session',
        'spend_by_day',
        'spend_by_session',
        'spend_by_agent_day',
      ]),
    );
    const next = db
      .prepare(`INSERT INTO audit (at, type, data_json) VALUES (6, 'type-6', '{}')`)
      .run();
    expect(Number(next.lastInsertRowid)).toBe(6);
    db.close();
  });
});
