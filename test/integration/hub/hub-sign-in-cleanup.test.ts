import { describe, expect, it } from 'vitest';
import { runExpiryRound } from '../../../main/hub/expiry-job';
import { addPerson, saveToken } from '../../../main/hub/store/people-repo';
import { createSession, listPeople, sessionPerson } from '../../../main/hub/store/sessions-repo';
import { DEAD_SIGN_IN_KEPT_MS } from '../../../main/hub/store/sign-in-cleanup-repo';
import { spendSignInToken } from '../../../main/hub/store/sign-in-repo';
import type { Clock } from '../../../shared/clock';
import { HUB_BACKENDS, hubDatabases } from '../../support/hub-databases';

const T0 = 1_800_000_000_000;
const DAY = 24 * 60 * 60_000;

const clockAt = (now: number): Clock => ({
  now: () => now,
  setTimer: () => ({ cancel: () => undefined }),
});

const dbs = hubDatabases();

/**
 * The hub's once-across-replicas job deletes browser sessions and sign-in links that can
 * never sign anyone in again (after a day, so a link presented again still says why it is
 * refused), on both databases; live ones stay and still work.
 */
describe.each(HUB_BACKENDS)('deleting dead sign-ins on %s', (backend) => {
  it('deletes ended and expired sessions, and spent and expired links, a day after', async () => {
    const db = await dbs.fresh(backend);
    await addPerson(db, { personId: 'p1', name: 'ann', role: 'approver', now: T0 });
    await addPerson(db, { personId: 'p2', name: 'bob', role: 'viewer', now: T0 });
    const session = (hash: string, personId: string, at: number, ttl: number) =>
      createSession(db, { sessionHash: hash, personId, now: at, expiresAt: at + ttl });
    await session('ann-expired', 'p1', T0, DAY);
    await session('ann-ended', 'p1', T0 + 1, 30 * DAY);
    await db.query('UPDATE browser_sessions SET ended_at = $1 WHERE session_hash = $2', [
      T0 + 2,
      'ann-ended',
    ]);
    await session('ann-live', 'p1', T0 + 5 * DAY, 7 * DAY);
    // bob's only session is dead, but it is his last sign-in: kept.
    await session('bob-expired', 'p2', T0, DAY);
    const link = { personId: 'p1', kind: 'sign_in' as const, now: T0 };
    await saveToken(db, { ...link, tokenHash: 'spent', expiresAt: T0 + DAY });
    await saveToken(db, { ...link, tokenHash: 'expired', expiresAt: T0 + DAY });
    await saveToken(db, { ...link, tokenHash: 'fresh', expiresAt: T0 + 10 * DAY });
    await saveToken(db, { tokenHash: 'personal', personId: 'p1', kind: 'personal', now: T0 });
    expect(await spendSignInToken(db, 'spent', T0 + 10)).toMatchObject({ ok: true });

    // Within a day of dying (the first died at T0 + 2), everything is kept and refused for what it is.
    const early = await runExpiryRound(db, clockAt(T0 + 2 + DEAD_SIGN_IN_KEPT_MS));
    expect(early).toEqual({
      ran: true,
      expiredCodes: 0,
      deletedSessions: 0,
      deletedTokens: 0,
      deletedNotices: 0,
      escalated: 0,
    });
    expect(await spendSignInToken(db, 'spent', T0 + DAY)).toEqual({ ok: false, reason: 'used' });

    const now = T0 + 6 * DAY;
    expect(await runExpiryRound(db, clockAt(now))).toEqual({
      ran: true,
      expiredCodes: 0,
      deletedSessions: 2,
      deletedTokens: 2,
      deletedNotices: 0,
      escalated: 0,
    });
    const left = await db.query<{ session_hash: string }>(
      'SELECT session_hash FROM browser_sessions ORDER BY session_hash',
    );
    expect(left.map((r) => r.session_hash)).toEqual(['ann-live', 'bob-expired']);
    const tokens = await db.query<{ token_hash: string }>(
      'SELECT token_hash FROM person_tokens ORDER BY token_hash',
    );
    expect(tokens.map((r) => r.token_hash)).toEqual(['fresh', 'personal']);
    const audit = await db.query<{ data: unknown }>(
      "SELECT data FROM audit WHERE type = 'sign_ins.deleted'",
    );
    expect(audit.map((r) => r.data)).toEqual([{ sessions: 2, tokens: 2 }]);

    // What is live still works; a deleted link is still refused; last sign-ins stay.
    expect(await sessionPerson(db, 'ann-live', now)).toMatchObject({ name: 'ann' });
    expect(await sessionPerson(db, 'bob-expired', now)).toBeUndefined();
    expect(await spendSignInToken(db, 'spent', now)).toEqual({ ok: false, reason: 'unknown' });
    expect(await spendSignInToken(db, 'expired', now)).toEqual({ ok: false, reason: 'unknown' });
    expect(await spendSignInToken(db, 'fresh', now)).toMatchObject({ ok: true });
    expect(await listPeople(db)).toEqual([
      { name: 'ann', role: 'approver', createdAt: T0, lastSignInAt: T0 + 5 * DAY },
      { name: 'bob', role: 'viewer', createdAt: T0, lastSignInAt: T0 },
    ]);
    // A second round finds nothing more (the link just spent is kept for its day).
    expect(await runExpiryRound(db, clockAt(now))).toMatchObject({
      deletedSessions: 0,
      deletedTokens: 0,
    });
  });
});
