/**
 * The audit chain end to end: a real daemon chains its trail and signs the head when it stops;
 * entries deleted, changed and swapped by hand in its SQLite file are each found by
 * `gatehouse audit verify`, which says where and exits 1.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDaemon } from '../../support/daemon';

let d: TestDaemon;

beforeAll(async () => {
  d = await TestDaemon.start({}, ['--no-dashboard']);
  // Every call its own entry, so entries settle (and are chained) a second after they are written.
  expect((await d.cli(['config', 'set', 'audit.classifyFoldMs', '0'])).code).toBe(0);
});
afterAll(async () => {
  await d.stop();
});

interface Verify {
  ok: boolean;
  checked: number;
  checkpoints: number;
  findings: { kind: string; seq: number }[];
}

async function verify(): Promise<{ code: number | null; stdout: string; json: Verify }> {
  const text = await d.cli(['audit', 'verify']);
  const json = await d.cli(['audit', 'verify', '--json']);
  expect(json.code).toBe(text.code);
  return { code: text.code, stdout: text.stdout, json: JSON.parse(json.stdout) as Verify };
}

describe('gatehouse audit verify', () => {
  it('finds entries deleted, changed and swapped by hand in the database file', async () => {
    const agent = await d.agent({ agent: 'auditor' });
    for (let i = 0; i < 6; i++) {
      await agent.request({ action: 'read_file', description: `read ${i}`, wait: false });
      await agent.classify({ action: 'git_push', target: `origin-${i}` });
    }
    const asked = await agent.request({ action: 'deploy', description: 'ship it', wait: false });
    expect((await d.cli(['deny', asked.requestId, '--reason', 'not today'])).code).toBe(0);
    agent.close();

    await new Promise((r) => setTimeout(r, 1100));
    const live = await verify();
    expect(live.code).toBe(0);
    expect(live.stdout).toMatch(/^Audit trail intact: \d+ entries checked/);
    expect(live.json.checked).toBeGreaterThan(10);

    // Stopping chains the rest and signs the head.
    await d.signal('SIGTERM');
    const db = new Database(join(d.home, 'gatehouse.db'));
    const stored = db.prepare('SELECT seq FROM audit ORDER BY seq').pluck().all() as number[];
    const own = db
      .prepare('SELECT audit_seq FROM requests WHERE audit_seq IS NOT NULL ORDER BY audit_seq')
      .pluck()
      .all() as number[];
    expect(db.prepare('SELECT count(*) FROM audit_checkpoints').pluck().get()).toBeGreaterThan(0);
    const changed = stored[2] as number;
    const deleted = own[1] as number;
    const [x, y] = [stored[5] as number, stored[6] as number];
    db.prepare(`UPDATE audit SET data_json = '{"note":"nothing happened"}' WHERE seq = ?`).run(
      changed,
    );
    db.prepare('DELETE FROM requests WHERE audit_seq = ?').run(deleted);
    db.transaction(() => {
      db.prepare('UPDATE audit SET seq = -1 WHERE seq = ?').run(x);
      db.prepare('UPDATE audit SET seq = ? WHERE seq = ?').run(x, y);
      db.prepare('UPDATE audit SET seq = ? WHERE seq = -1').run(y);
    })();
    db.close();
    await d.launch(['--no-dashboard']);

    const r = await verify();
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^Audit trail TAMPERED: 4 finding/);
    expect(r.json.findings.map((f) => [f.kind, f.seq]).sort()).toEqual(
      [
        ['changed', changed],
        ['deleted', deleted],
        ['changed', x],
        ['changed', y],
      ].sort(),
    );
    for (const seq of [changed, deleted, x, y]) expect(r.stdout).toContain(`entry ${seq}`);
  });
});
