import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TeamPolicyBook } from '../../../../main/hub-link/team-policy-book';
import { openDatabase } from '../../../../main/store/database';
import { TeamPolicyRepository } from '../../../../main/store/team-policy-repository';
import { generateEd25519, signText, type Ed25519Pair } from '../../../../shared/node/hub-keys';
import { teamPolicyText, type TeamRule } from '../../../../shared/policy/team-policy';

const rule: TeamRule = { ruleId: 'tr-aaaa1', action: 'git_push', tier: 'ask', mode: 'enforce' };

/** A bundle as the hub publishes it: its exact text, signed with `key`. */
function bundle(key: Ed25519Pair, version: number, rules: TeamRule[] = [rule]) {
  const payload = JSON.stringify({ v: 1, version, publishedAt: 1_000 + version, rules });
  return { payload, sig: signText(key.privateKeyPem, teamPolicyText(payload)) };
}

describe('the team policy book: checks, keeps and shows the bundle (real SQLite file)', () => {
  let dir: string;
  let db: Database.Database;
  let audit: { type: string; data: Record<string, unknown> }[];
  let pinned: string | undefined;
  const hub = generateEd25519();
  const other = generateEd25519();
  const open = () =>
    new TeamPolicyBook({
      repo: new TeamPolicyRepository(db),
      now: () => 5_000,
      pinnedKey: () => pinned,
      audit: (type, data) => audit.push({ type, data }),
    });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gh-team-'));
    db = openDatabase({ file: join(dir, 'g.db') });
    audit = [];
    pinned = hub.publicKey;
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes a bundle the pinned key signed, and keeps it across a restart', () => {
    const book = open();
    expect(book.info()).toBeUndefined();
    const b = bundle(hub, 3);
    expect(book.receive(b.payload, b.sig, hub.publicKey)).toEqual({
      outcome: 'accepted',
      version: 3,
    });
    expect(book.current()).toEqual({ version: 3, rules: [rule] });
    expect(audit).toEqual([
      { type: 'team_policy.accepted', data: expect.objectContaining({ version: 3 }) as object },
    ]);
    // Sent again on a reconnect: nothing changes, nothing is audited.
    expect(book.receive(b.payload, b.sig, hub.publicKey)).toEqual({
      outcome: 'unchanged',
      version: 3,
    });
    expect(audit).toHaveLength(1);
    // A new process on the same database: the same version, checked again.
    expect(open().info()).toEqual({
      version: 3,
      publishedAt: 1_003,
      acceptedAt: 5_000,
      enforced: 1,
      shadow: 0,
    });
  });

  it('refuses another key, an older version and the same version with other rules', () => {
    const book = open();
    const v3 = bundle(hub, 3);
    book.receive(v3.payload, v3.sig, hub.publicKey);
    const forged = bundle(other, 9, []);
    expect(book.receive(forged.payload, forged.sig, hub.publicKey)).toMatchObject({
      outcome: 'refused',
      reason: 'bad_signature',
    });
    const older = bundle(hub, 2, []);
    expect(book.receive(older.payload, older.sig, hub.publicKey)).toMatchObject({
      outcome: 'refused',
      reason: 'not_newer',
    });
    const same = bundle(hub, 3, []);
    expect(book.receive(same.payload, same.sig, hub.publicKey)).toMatchObject({
      outcome: 'refused',
      reason: 'not_newer',
    });
    // A signed text that is not a bundle.
    const junk = {
      payload: '{"v":2}',
      sig: signText(hub.privateKeyPem, teamPolicyText('{"v":2}')),
    };
    expect(book.receive(junk.payload, junk.sig, hub.publicKey)).toMatchObject({
      reason: 'invalid',
    });
    expect(book.current()?.version).toBe(3);
    expect(audit.map((a) => [a.type, a.data.reason])).toEqual([
      ['team_policy.accepted', undefined],
      ['team_policy.refused', 'bad_signature'],
      ['team_policy.refused', 'not_newer'],
      ['team_policy.refused', 'not_newer'],
      ['team_policy.refused', 'invalid'],
    ]);
    expect(book.info()?.lastRefused?.reason).toMatch(/^invalid/);
  });

  it('a row written by hand is refused at start; the pinned key decides, not the row', () => {
    open().receive(bundle(hub, 3).payload, bundle(hub, 3).sig, hub.publicKey);
    const forged = bundle(other, 50, []);
    new TeamPolicyRepository(db).save({
      version: 50,
      payload: forged.payload,
      signature: forged.sig,
      hubKey: other.publicKey,
      acceptedAt: 1,
    });
    audit = [];
    const book = open();
    expect(book.current()).toBeUndefined();
    expect(book.info()).toMatchObject({
      version: 0,
      lastRefused: { reason: expect.stringMatching(/^bad_signature/) as string },
    });
    expect(audit).toEqual([
      {
        type: 'team_policy.refused',
        data: expect.objectContaining({ reason: 'bad_signature', version: 50 }) as object,
      },
    ]);
    // The real hub's bundle is taken again (the forged version 50 does not hold it back).
    const v4 = bundle(hub, 4);
    expect(book.receive(v4.payload, v4.sig, hub.publicKey)).toMatchObject({ outcome: 'accepted' });
  });

  it('a hub joined later (another pinned key) starts its versions afresh', () => {
    const book = open();
    const v5 = bundle(hub, 5);
    book.receive(v5.payload, v5.sig, hub.publicKey);
    pinned = other.publicKey;
    const first = bundle(other, 1);
    expect(book.receive(first.payload, first.sig, other.publicKey)).toEqual({
      outcome: 'accepted',
      version: 1,
    });
  });

  it('keeps shadow records until the hub acknowledges them', () => {
    const book = open();
    let kicked = 0;
    book.whenShadowed(() => kicked++);
    const record = {
      at: 1,
      ruleId: 'tr-aaaa1',
      version: 3,
      action: 'git_push',
      would: 'ask' as const,
      actual: 'auto' as const,
      summary: 'git push',
    };
    book.shadowed(record);
    book.shadowed({ ...record, at: 2 });
    expect(kicked).toBe(2);
    const unsent = book.unsentShadow(10);
    expect(unsent.map((r) => r.at)).toEqual([1, 2]);
    book.shadowDelivered(unsent[0]!.id);
    expect(book.unsentShadow(10).map((r) => r.at)).toEqual([2]);
  });
});
