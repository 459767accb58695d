import { randomInt } from 'node:crypto';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../../main/store/database';
import { migrations } from '../../../../main/store/migrations/index';
import { idOrdinal, timeOrderedIds } from '../../../../main/engine/kernel/ids';
import { createSqliteEngineStores } from '../../../../main/store/sqlite-engine-stores';
import { allStorePorts } from '../../../support/engine-harness';
import { newestRequestId, RequestsRepository } from '../../../../main/store/requests-repository';
import { draftOfPattern } from '../../../../main/engine/policy/decision-pattern';
import {
  HUMAN_WINDOW,
  SESSION_PATTERN_DECISIONS,
} from '../../../../main/store/human-decisions-sql';
import { seedLongSession } from '../../../support/seed-session';

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

  it('004 keys requests by their ids and moves each session to just before its first request', () => {
    const db = databaseAt(3);
    const session = db.prepare(
      `INSERT INTO sessions (session_id, agent, status, started_at, last_seen_at, requests_from)
       VALUES (?, 'agent', 'active', 1, 1, (SELECT COALESCE(MAX(rowid), 0) FROM requests))`,
    );
    const request = db.prepare(
      `INSERT INTO requests (request_id, session_id, agent, action, description, urgency,
       fingerprint, status, tier, rule, rule_reason, created_at)
       VALUES (?, ?, 'agent', 'read_file', ?, 'normal', 'f', 'approved', 'auto', 'r', 'why', 1)`,
    );
    const ids = timeOrderedIds(() => 1_750_000_000_000, randomInt);
    session.run('ses-a');
    const a1 = ids('req');
    request.run(a1, 'ses-a', 'first of a');
    session.run('ses-b');
    const b1 = ids('req');
    request.run(b1, 'ses-b', 'first of b');
    const a2 = ids('req');
    request.run(a2, 'ses-a', 'second of a');
    // An id of another shape, as an older build could have stored.
    request.run('legacy-ID', 'ses-b', 'odd one');
    session.run('ses-c');

    migrate(db);

    const requests = new RequestsRepository(db);
    const described = (sessionId: string) =>
      requests.listSessionRequests(sessionId).map((r) => r.description);
    expect(described('ses-a')).toEqual(['first of a', 'second of a']);
    // The odd id's row has a negative key, so it comes first in key order.
    expect(described('ses-b')).toEqual(['odd one', 'first of b']);
    expect(described('ses-c')).toEqual([]);
    expect(requests.getRequest(a2)?.description).toBe('second of a');
    expect(requests.getRequest('legacy-ID')?.description).toBe('odd one');
    requests.updateRequest('legacy-ID', { status: 'denied' });
    expect(requests.getRequest('legacy-ID')?.status).toBe('denied');
    // An id of the same shape that no stored request has: a2 with another last character.
    const unknown = [...'0123456789abcdefghjkmnpqrstvwxyz']
      .map((last) => `${a2.slice(0, -1)}${last}`)
      .find((id) => ![a1, b1, a2].includes(id))!;
    expect(requests.getRequest(unknown)).toBeUndefined();
    expect(newestRequestId(db)).toBe(a2);
    // The only indexes on the table are for open requests, dedupe keys, (008) human
    // decisions, (010) the lists and (014) a session's unapproved and asked-and-approved
    // requests, (024) the review queue in attention order: none for the id text. A session's
    // and an agent's requests are found through the key tables of 019 instead of (011)
    // requests_by_session and (010) requests_by_agent.
    const indexes = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'requests'`)
      .pluck()
      .all();
    expect(indexes.sort()).toEqual([
      'requests_asked_approved',
      'requests_audit',
      'requests_by_dedupe',
      'requests_deadline',
      'requests_human_decided',
      'requests_open',
      'requests_queue',
      'requests_unapproved',
      'requests_waiting',
    ]);

    // A request made after the migration, in a session from before it, is found in order.
    const a3 = timeOrderedIds(() => 1_750_000_000_000, randomInt, newestRequestId(db))('req');
    requests.insert({
      ...requests.getRequest(a1)!,
      requestId: a3,
      description: 'third of a',
    });
    expect(described('ses-a')).toEqual(['first of a', 'second of a', 'third of a']);
    expect(() => requests.insert({ ...requests.getRequest(a1)!, requestId: 'not an id' })).toThrow(
      /not a time-ordered id/,
    );
    db.close();
  });
  it('005 leaves older requests with their audit rows, and the trail shows each once', () => {
    const db = databaseAt(4);
    const ids = timeOrderedIds(() => 1_750_000_000_000, randomInt);
    const old = ids('req');
    db.prepare(
      `INSERT INTO sessions (session_id, agent, status, started_at, last_seen_at, requests_from)
       VALUES ('ses-a', 'agent', 'active', 1, 1, 0)`,
    ).run();
    db.prepare(
      `INSERT INTO requests (request_key, request_id, session_id, agent, action, description,
       urgency, fingerprint, status, tier, rule, rule_reason, created_at)
       VALUES (?, ?, 'ses-a', 'agent', 'read_file', 'read', 'normal', 'f', 'approved', 'auto',
       'default:read_file', 'why', 1)`,
    ).run(idOrdinal(old), old);
    db.prepare(
      `INSERT INTO audit (at, type, session_id, agent, request_id, data_json)
       VALUES (1, 'request.filed', 'ses-a', 'agent', ?, '{"status":"approved"}')`,
    ).run(old);

    expect(migrate(db)).toBe(migrations.filter((m) => m.version > 4).length);

    const store = allStorePorts(createSqliteEngineStores(db));
    const filed = () => store.queryAudit({ limit: 10, type: 'request.filed' });
    expect(filed()).toEqual([expect.objectContaining({ seq: 1, requestId: old })]);
    // A request filed now as its own entry is numbered after the audit rows.
    const next = timeOrderedIds(() => 1_750_000_000_000, randomInt, newestRequestId(db))('req');
    store.fileRequest({ ...store.getRequest(old)!, requestId: next });
    expect(filed().map((e) => [e.seq, e.requestId])).toEqual([
      [2, next],
      [1, old],
    ]);
    db.close();
  });

  it('007 keeps older rules and grants action-wide, and stores new matchers', () => {
    const db = databaseAt(5);
    db.prepare(
      `INSERT INTO rules (rule_id, action, tier, project, source, created_at)
       VALUES ('rul-old', 'deploy', 'auto', '/srv/app', 'decision', 1)`,
    ).run();
    db.prepare(
      `INSERT INTO grants (grant_id, agent, session_id, action, source_request_id, kind, created_at)
       VALUES ('gra-old', 'agent', 'ses-a', 'git_push', 'req-x', 'session', 1)`,
    ).run();

    expect(migrate(db)).toBe(migrations.filter((m) => m.version > 5).length);

    const store = allStorePorts(createSqliteEngineStores(db));
    const [old] = store.listRules();
    expect(old).toMatchObject({ ruleId: 'rul-old', action: 'deploy', project: '/srv/app' });
    expect(old!.command ?? old!.commandPrefix ?? old!.paths).toBeUndefined();
    expect(store.listLiveGrants('agent', 'git_push')[0]!.matchers).toBeUndefined();

    store.insertRule({
      ruleId: 'rul-new',
      action: 'deploy',
      tier: 'auto',
      commandPrefix: 'kubectl apply',
      paths: ['k8s/*.yaml'],
      source: 'user',
      createdAt: new Date(2).toISOString(),
    });
    expect(store.listRules()[1]).toMatchObject({
      commandPrefix: 'kubectl apply',
      paths: ['k8s/*.yaml'],
    });
    db.close();
  });

  it('012 owes no file for sessions ended before it; a deleted session takes its debt with it', () => {
    const db = databaseAt(11);
    const insert = db.prepare(
      `INSERT INTO sessions (session_id, agent, status, started_at, ended_at, last_seen_at)
       VALUES (?, 'agent', ?, 1, ?, 1)`,
    );
    insert.run('ses-ended', 'completed', 2);
    insert.run('ses-live', 'active', null);

    expect(migrate(db)).toBe(migrations.filter((m) => m.version > 11).length);

    const store = allStorePorts(createSqliteEngineStores(db));
    expect(store.owedTranscriptFiles('', 10)).toEqual([]);
    store.oweTranscriptFile('ses-ended', 0);
    store.oweTranscriptFile('ses-live', 2);
    expect(store.owedTranscriptFiles('', 10)).toEqual([
      { sessionId: 'ses-ended', connections: 0 },
      { sessionId: 'ses-live', connections: 2 },
    ]);
    expect(store.owedTranscriptFiles('ses-ended', 10).map((o) => o.sessionId)).toEqual([
      'ses-live',
    ]);
    db.prepare("DELETE FROM sessions WHERE session_id = 'ses-ended'").run();
    store.transcriptFileWritten('ses-live');
    expect(store.owedTranscriptFiles('', 10)).toEqual([]);
    db.close();
  });

  it('014 indexes the requests and stops already stored: counts and lists match a walk of the session', () => {
    const db = databaseAt(13);
    const seeded = seedLongSession(db, { startedAt: 1_750_000_000_000, requests: 700, logs: 300 });
    const sessionId = seeded.sessionId;
    // Every status, and approvals of both tiers, in the database as version 13 left it.
    const setStatus = db.prepare(
      'UPDATE requests SET status = ?, tier = ?, decided_by = ? WHERE request_id = ?',
    );
    const ids = seeded.requestIds;
    setStatus.run('pending', 'ask', null, ids[3]);
    setStatus.run('timed_out', 'ask', null, ids[4]);
    setStatus.run('cancelled', 'ask', null, ids[6]);
    setStatus.run('abandoned', 'auto', null, ids[8]);
    setStatus.run('denied', 'auto', 'policy', ids[9]);
    setStatus.run('approved', 'ask', 'grant', ids[11]);
    const log = db.prepare(
      `INSERT INTO transcript (session_id, at, kind, text, data_json) VALUES (?, 1, ?, ?, ?)`,
    );
    log.run(sessionId, 'log', 'stopped: out of ideas', '{"type":"stopped"}');
    log.run(sessionId, 'log', 'a note without data', null);
    log.run(sessionId, 'log', 'stopped in nested data only', '{"detail":{"type":"stopped"}}');
    log.run(sessionId, 'usage', 'a usage entry', '{"type":"stopped"}');
    log.run(seeded.otherSessionId, 'log', "another session's stop", '{"type":"stopped"}');

    expect(migrate(db)).toBe(migrations.filter((m) => m.version > 13).length);
    const store = allStorePorts(createSqliteEngineStores(db));

    /** What the summary and the report say, against the whole session walked in JS. */
    const expectMatchesWalk = () => {
      const all = store.listSessionRequests(sessionId);
      const withStatus = (...st: string[]) => all.filter((r) => st.includes(r.status));
      expect(store.countSessionRequestsByStatus(sessionId)).toEqual({
        total: all.length,
        approved: withStatus('approved').length,
        denied: withStatus('denied').length,
        pending: withStatus('pending').length,
        timedOut: withStatus('timed_out').length,
      });
      expect(store.countOpenRequests(sessionId)).toBe(withStatus('pending', 'timed_out').length);
      const firstIds = (rs: { requestId: string }[], n: number) =>
        rs.slice(0, n).map((r) => r.requestId);
      expect(firstIds(store.listFirstSessionRequests(sessionId, 5, ['denied']), 5)).toEqual(
        firstIds(withStatus('denied'), 5),
      );
      expect(
        firstIds(store.listFirstSessionRequests(sessionId, 50, ['pending', 'timed_out']), 50),
      ).toEqual(firstIds(withStatus('pending', 'timed_out'), 50));

      const logs = store.listTranscript(sessionId).filter((e) => e.kind === 'log');
      const isStop = (e: (typeof logs)[number]) => e.data?.type === 'stopped';
      const asks = all.filter((r) => r.status === 'approved' && r.tier === 'ask');
      const unsettled = withStatus('pending', 'timed_out', 'denied');
      const facts = store.sessionSummaryFacts(sessionId, 40);
      expect(facts.logs.total).toBe(logs.filter((e) => !isStop(e)).length);
      expect(facts.logs.items).toEqual(
        logs
          .filter((e) => !isStop(e))
          .slice(0, 40)
          .map((e) => e.text),
      );
      expect(facts.stops).toEqual({
        total: logs.filter(isStop).length,
        items: logs.filter(isStop).map((e) => e.text),
      });
      expect(facts.approvedAsks.total).toBe(asks.length);
      expect(facts.approvedAsks.items.map((r) => r.requestId)).toEqual(firstIds(asks, 40));
      expect(facts.unsettled.total).toBe(unsettled.length);
      expect(facts.unsettled.items.map((r) => r.requestId)).toEqual(firstIds(unsettled, 40));
      expect(facts.humanApproved).toBe(asks.some((r) => r.decidedBy === 'human'));
      return { all, facts };
    };
    const before = expectMatchesWalk();
    expect(before.facts.stops.items).toEqual(['stopped: out of ideas']);
    expect(before.facts.unsettled.items[0]?.requestId).toBe(ids[0]);

    // Rows written and changed after the migration keep the indexes in step.
    store.updateRequest(ids[3]!, { status: 'approved', decidedBy: 'human' });
    store.updateRequest(ids[4]!, { status: 'denied', decidedBy: 'human' });
    const next = timeOrderedIds(() => 1_760_000_000_000, randomInt, newestRequestId(db));
    const filed = next('req');
    store.fileRequest({ ...store.getRequest(ids[1]!)!, requestId: filed, status: 'pending' });
    store.appendTranscript(sessionId, {
      at: new Date(1_760_000_000_000).toISOString(),
      kind: 'log',
      text: 'stopped again',
      data: { type: 'stopped' },
    });
    const after = expectMatchesWalk();
    expect(after.all).toHaveLength(before.all.length + 1);
    expect(after.facts.stops.items).toEqual(['stopped: out of ideas', 'stopped again']);
    expect(store.countOpenRequests(sessionId)).toBe(1);
    db.close();
  });
  it("026 gives a person's decisions their pattern, drafted where each call ran, and reads the newest on the index alone", () => {
    const db = databaseAt(25);
    const seeded = seedLongSession(db, { startedAt: 1_750_000_000_000, requests: 700, logs: 0 });
    db.prepare(
      `UPDATE requests SET command = 'rm -rf dist', paths_json = '["dist"]', project = '/p'`,
    ).run();
    // Every other call ran in the project's pkg folder: its dist is pkg/dist.
    db.prepare(
      `UPDATE requests SET context_json = '{"cwd":"/p/pkg"}' WHERE created_at % 2000 = 1000`,
    ).run();
    expect(migrate(db)).toBe(migrations.length - 25);
    const human = db
      .prepare(
        `SELECT request_id AS id, created_at % 2000 = 1000 AS inPkg FROM requests
         WHERE decided_by = 'human' ORDER BY decided_at DESC, request_key DESC`,
      )
      .all() as { id: string; inPkg: 0 | 1 }[];
    const store = allStorePorts(createSqliteEngineStores(db));
    const decisions = store.listHumanDecidedRequests(10_000);
    expect(decisions.map((d) => d.row.requestId)).toEqual(human.map((h) => h.id));
    decisions.forEach((d, i) =>
      expect(draftOfPattern(d.pattern)).toEqual({
        action: 'run_command',
        command: 'rm -rf dist',
        paths: [human[i]!.inPkg ? 'pkg/dist' : 'dist'],
        project: '/p',
      }),
    );
    // A session's decisions: those of the window whose pattern one of its approvals has.
    const sessionScan = (window: typeof decisions) => {
      const mine = new Set(
        window
          .filter((d) => d.row.sessionId === seeded.sessionId && d.row.status === 'approved')
          .map((d) => d.pattern),
      );
      return window.filter((d) => mine.has(d.pattern)).map((d) => d.row.requestId);
    };
    for (const limit of [10_000, 200, 3]) {
      const expected = sessionScan(decisions.slice(0, limit));
      if (limit === 10_000)
        expect(
          new Set(expected.map((id) => decisions.find((d) => d.row.requestId === id)!.pattern))
            .size,
        ).toBe(2);
      expect(
        store.listSessionPatternDecisions(seeded.sessionId, limit).map((d) => d.row.requestId),
        `${limit}`,
      ).toEqual(expected);
    }
    const plan = (sql: string) =>
      (
        db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ limit: 1, sessionId: 'x' }) as {
          detail: string;
        }[]
      ).map((p) => p.detail);
    expect(plan(HUMAN_WINDOW)).toEqual([
      'SCAN requests USING COVERING INDEX requests_human_decided',
    ]);
    expect(plan(SESSION_PATTERN_DECISIONS)).toContain(
      'SCAN requests USING COVERING INDEX requests_human_decided',
    );
    db.close();
  });

  it('022 masks the tool inputs kept for editing, in the requests and the hub outbox', () => {
    const db = databaseAt(21);
    const key = 'sk-ant-OLDKEYOLDKEYOLDKEYOLDKEY';
    const context = { tool: 'Write', toolInput: { file_path: '/p/a.ts', content: `k="${key}"` } };
    db.prepare(
      `INSERT INTO sessions (session_id, agent, status, started_at, last_seen_at, requests_from)
       VALUES ('ses-m', 'agent', 'active', 1, 1, 0)`,
    ).run();
    const request = db.prepare(
      `INSERT INTO requests (request_key, request_id, session_id, agent, action, description,
       urgency, context_json, fingerprint, status, tier, rule, rule_reason, created_at)
       VALUES (?, ?, 'ses-m', 'agent', 'write_file', 'Write', 'normal', ?, 'f', 'pending', 'ask',
       'r', 'why', 1)`,
    );
    request.run(1, 'req-secret', JSON.stringify(context));
    request.run(2, 'req-plain', JSON.stringify({ tool: 'Bash', toolInput: { command: 'ls' } }));
    db.prepare(
      `INSERT INTO hub_outbox (kind, request_id, body, created_at) VALUES ('request.asked', 'req-secret', ?, 1)`,
    ).run(JSON.stringify({ requestId: 'req-secret', context }));

    migrate(db);

    const contexts = db.prepare('SELECT context_json FROM requests ORDER BY request_key').pluck();
    const [secret, plain] = contexts.all() as string[];
    expect(secret).not.toContain('OLDKEY');
    expect(JSON.parse(secret!)).toEqual({
      tool: 'Write',
      toolInput: { file_path: '/p/a.ts', content: 'k="sk-a…[masked]"' },
    });
    expect(JSON.parse(plain!)).toEqual({ tool: 'Bash', toolInput: { command: 'ls' } });
    const body = db.prepare('SELECT body FROM hub_outbox').pluck().get() as string;
    expect(body).not.toContain('OLDKEY');
    expect(body).toContain('sk-a…[masked]');
    db.close();
  });

  it("024 masks what waits in the hub outbox and the shadow records, keeping the offers' ids", () => {
    const db = databaseAt(23);
    const token = 'ghp_OUTBOXTOKENOUTBOXTOKEN0123456789';
    const command = `git push https://${token}@github.com/o/r.git main`;
    const request = {
      requestId: 'req-old',
      sessionId: 'ses-old',
      action: 'git_push',
      description: command,
      command,
      target: `https://${token}@github.com/o/r.git`,
    };
    const offers = [
      { id: 'a'.repeat(32), draft: { action: 'git_push', command }, describe: command },
      {
        id: 'b'.repeat(32),
        draft: { action: 'git_push', commandPrefix: 'git push' },
        describe: 'x',
      },
    ];
    const insert = db.prepare(
      'INSERT INTO hub_outbox (kind, request_id, body, created_at, offers) VALUES (?, ?, ?, 1, ?)',
    );
    insert.run('request.asked', 'req-old', JSON.stringify(request), JSON.stringify(offers));
    insert.run(
      'request.decided',
      'req-old',
      JSON.stringify({ ...request, status: 'approved' }),
      null,
    );
    const plain = JSON.stringify({ requestId: 'req-plain', description: 'ls' });
    insert.run('request.asked', 'req-plain', plain, null);
    const shadow = { ruleId: 'tr-1', action: 'git_push', summary: command, would: 'ask' };
    db.prepare('INSERT INTO team_shadow (at, body) VALUES (1, ?)').run(JSON.stringify(shadow));

    migrate(db);

    const rows = db.prepare('SELECT body, offers FROM hub_outbox ORDER BY seq').all() as {
      body: string;
      offers: string | null;
    }[];
    expect(JSON.stringify(rows)).not.toContain('OUTBOXTOKEN');
    const asked = JSON.parse(rows[0]!.body) as typeof request;
    expect(asked).toEqual({
      ...request,
      description: 'git push https://ghp_…[masked]@github.com/o/r.git main',
      command: 'git push https://ghp_…[masked]@github.com/o/r.git main',
      target: 'https://ghp_…[masked]@github.com/o/r.git',
    });
    const kept = JSON.parse(rows[0]!.offers!) as typeof offers;
    expect(kept.map((o) => o.id)).toEqual(offers.map((o) => o.id));
    expect(kept[0]!.draft.command).toBe(asked.command);
    expect(kept[1]).toEqual(offers[1]);
    expect(rows[1]!.offers).toBeNull();
    expect(rows[2]!.body).toBe(plain);
    const summary = db.prepare('SELECT body FROM team_shadow').pluck().get() as string;
    expect(JSON.parse(summary)).toEqual({ ...shadow, summary: asked.command });
    db.close();
  });
});
