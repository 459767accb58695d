/**
 * The audit chain end to end: a real daemon chains its trail and signs the head when it stops;
 * entries deleted, changed and swapped by hand in its SQLite file are each found by
 * `gatehouse audit verify`, which says where and exits 1. Exports signed with `--sign` are
 * checked by `gatehouse export verify`: an edited file, a signature by another key, or a key
 * the person did not name are refused.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateEd25519, signText } from '../../../shared/node/hub-keys';
import { exportSignedText } from '../../../shared/export-format';
import type { AuditExportSignature } from '../../../shared/protocol/audit-chain-methods';
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

describe('gatehouse export --sign and export verify', () => {
  it('signs what it wrote, and refuses an edited file or another key', async () => {
    const agent = await d.agent({ agent: 'exporter' });
    for (let i = 0; i < 3; i++)
      await agent.request({
        action: 'read_file',
        description: `=cmd|' /C calc'!A${i}`,
        wait: false,
      });
    agent.close();
    for (const format of ['jsonl', 'csv']) {
      const file = join(d.home, `..`, `export.${format}`);
      const out = await d.cli(['export', '--format', format, '--out', file, '--sign']);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(`signed ${file}`);
      const ok = await d.cli(['export', 'verify', file]);
      expect(ok.stdout).toMatch(/^Verified: .*: \d+ audit entries/);
      expect(ok.code).toBe(0);

      // One byte changed: refused.
      const bytes = readFileSync(file);
      writeFileSync(
        file,
        Buffer.concat([bytes.subarray(0, 20), Buffer.from('X'), bytes.subarray(21)]),
      );
      const edited = await d.cli(['export', 'verify', file]);
      expect(edited.code).toBe(1);
      expect(edited.stdout).toContain('the file was changed after it was signed');
      writeFileSync(file, bytes);

      // A forger re-signs an edited file with a key of their own: the signature holds, the key does not.
      const forged = Buffer.concat([
        bytes,
        Buffer.from(format === 'csv' ? '1,x,y,,,,{}\r\n' : '{}\n'),
      ]);
      writeFileSync(file, forged);
      const sig = JSON.parse(readFileSync(`${file}.sig`, 'utf8')) as AuditExportSignature;
      const mine = generateEd25519();
      const reSigned: AuditExportSignature = {
        ...sig,
        bytes: forged.length,
        sha256: createHash('sha256').update(forged).digest('hex'),
        publicKey: mine.publicKey,
      };
      reSigned.signature = signText(mine.privateKeyPem, exportSignedText(reSigned));
      writeFileSync(`${file}.sig`, JSON.stringify(reSigned));
      const foreign = await d.cli(['export', 'verify', file]);
      expect(foreign.code).toBe(1);
      expect(foreign.stdout).toMatch(/signed by SHA256:\S+, not by this Gatehouse's key/);
      // ...and is only accepted by whoever names that key.
      expect((await d.cli(['export', 'verify', file, '--key', mine.publicKey])).code).toBe(0);
    }
  });
});

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
    // Two entries that differ beyond their numbers: two classifications of the same action in
    // the same millisecond are the same entry, and swapping them changes nothing.
    const content = (seq: number): string =>
      JSON.stringify(db.prepare('SELECT type, at, data_json FROM audit WHERE seq = ?').get(seq));
    const swapAt = stored.findIndex(
      (seq, i) => i >= 3 && i + 1 < stored.length && content(seq) !== content(stored[i + 1]!),
    );
    const [x, y] = [stored[swapAt] as number, stored[swapAt + 1] as number];
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
