import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../main/store/database';
import { RequestPicturesRepository } from '../../../../main/store/request-pictures-repository';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('request pictures repository', () => {
  it('keeps one picture per request, and drops it with its request', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gh-pic-'));
    dirs.push(dir);
    const db = openDatabase({ file: join(dir, 'g.db') });
    const repo = new RequestPicturesRepository(db);
    const picture = {
      files: [{ path: '/p/a.ts', kind: 'modify' as const, added: 1, removed: 0, diff: '+x' }],
    };
    repo.savePicture('req_1', picture, 1);
    repo.savePicture('req_1', { ...picture, omitted: ['again'] }, 2);
    expect(repo.getPicture('req_1')).toEqual({ ...picture, omitted: ['again'] });
    expect(repo.getPicture('req_2')).toBeUndefined();
    db.prepare(
      `INSERT INTO sessions (session_id, agent, status, started_at, last_seen_at) VALUES ('s', 'a', 'active', 0, 0)`,
    ).run();
    db.prepare(
      `INSERT INTO requests (request_id, session_id, agent, action, description, urgency, status, tier, rule, rule_reason, fingerprint, created_at)
       VALUES ('req_3', 's', 'a', 'write_file', 'd', 'normal', 'pending', 'ask', 'r', 'why', 'f', 0)`,
    ).run();
    repo.savePicture('req_3', picture, 3);
    db.prepare(`DELETE FROM requests WHERE request_id = 'req_3'`).run();
    expect(repo.getPicture('req_3')).toBeUndefined();
    db.close();
  });
});
