import { describe, expect, it } from 'vitest';
import { HubPasskeys, PASSKEY_CHALLENGE_TTL_MS } from '../../../main/hub/hub-passkeys';
import { HubRefusal } from '../../../main/hub/hub-service';
import {
  addPasskey,
  markSessionPasskey,
  passkeyById,
  passkeysOf,
  recordPasskeyUse,
  removePasskey,
  saveChallenge,
  sessionPasskeyAt,
  spendChallenge,
} from '../../../main/hub/store/passkeys-repo';
import { addPerson } from '../../../main/hub/store/people-repo';
import { createSession, endSession } from '../../../main/hub/store/sessions-repo';
import { FakeClock } from '../../support/fake-clock';
import { HUB_BACKENDS, hubDatabases } from '../../support/hub-databases';

const T0 = 1_800_000_000_000;
const dbs = hubDatabases();

describe.each(HUB_BACKENDS)("the hub's passkeys on %s", (backend) => {
  it('spends a challenge once, only for its purpose, its session and before it expires', async () => {
    const db = await dbs.fresh(backend);
    const save = (challenge: string, purpose: 'register' | 'sign_in', sessionHash?: string) =>
      saveChallenge(db, {
        challenge,
        purpose,
        ...(sessionHash ? { sessionHash } : {}),
        now: T0,
        expiresAt: T0 + 120_000,
      });
    await save('c1', 'sign_in');
    expect(await spendChallenge(db, { challenge: 'c1', purpose: 'sign_in', now: T0 + 1 })).toBe(
      true,
    );
    // Twice: gone.
    expect(await spendChallenge(db, { challenge: 'c1', purpose: 'sign_in', now: T0 + 2 })).toBe(
      false,
    );
    await save('c2', 'register', 'session-a');
    // Another session's attempt spends it for nothing: the right session then finds it gone.
    expect(
      await spendChallenge(db, {
        challenge: 'c2',
        purpose: 'register',
        sessionHash: 'session-b',
        now: T0,
      }),
    ).toBe(false);
    expect(
      await spendChallenge(db, {
        challenge: 'c2',
        purpose: 'register',
        sessionHash: 'session-a',
        now: T0,
      }),
    ).toBe(false);
    await save('c3', 'register', 'session-a');
    expect(await spendChallenge(db, { challenge: 'c3', purpose: 'sign_in', now: T0 })).toBe(false);
    await save('c4', 'sign_in');
    expect(
      await spendChallenge(db, { challenge: 'c4', purpose: 'sign_in', now: T0 + 120_000 }),
    ).toBe(false);
    // Two replicas spending one challenge at once: exactly one succeeds.
    await save('c5', 'sign_in');
    const both = await Promise.all(
      [1, 2].map(() => spendChallenge(db, { challenge: 'c5', purpose: 'sign_in', now: T0 })),
    );
    expect(both.filter(Boolean)).toHaveLength(1);
  });

  it('keeps passkeys by person, refuses a taken credential id, and only lets the counter grow', async () => {
    const db = await dbs.fresh(backend);
    await addPerson(db, { personId: 'p1', name: 'ann', role: 'admin', now: T0 });
    await addPerson(db, { personId: 'p2', name: 'bob', role: 'viewer', now: T0 });
    const key = {
      credentialId: 'cred-1',
      personId: 'p1',
      publicKey: 'pk',
      counter: 0,
      transports: ['internal', 'hybrid'],
      createdAt: T0,
    };
    expect(await addPasskey(db, key)).toBe(true);
    expect(await addPasskey(db, { ...key, personId: 'p2' })).toBe(false);
    expect(await passkeysOf(db, 'p2')).toEqual([]);
    expect((await passkeyById(db, 'cred-1'))?.person.name).toBe('ann');
    expect((await passkeysOf(db, 'p1'))[0]?.transports).toEqual(['internal', 'hybrid']);

    // An authenticator without a counter (zero each time) is accepted; once it counts, it must grow.
    expect(await recordPasskeyUse(db, 'cred-1', 0, T0 + 1)).toBe(true);
    expect(await recordPasskeyUse(db, 'cred-1', 5, T0 + 2)).toBe(true);
    expect(await recordPasskeyUse(db, 'cred-1', 5, T0 + 3)).toBe(false);
    expect(await recordPasskeyUse(db, 'cred-1', 3, T0 + 4)).toBe(false);
    expect(await recordPasskeyUse(db, 'cred-1', 0, T0 + 5)).toBe(false);
    // Two replicas accepting the same counter at once: one.
    const both = await Promise.all([1, 2].map(() => recordPasskeyUse(db, 'cred-1', 6, T0 + 6)));
    expect(both.filter(Boolean)).toHaveLength(1);
    expect(await passkeyById(db, 'cred-1')).toMatchObject({
      passkey: { counter: 6, lastUsedAt: T0 + 6 },
    });

    // Only its owner removes it.
    expect(await removePasskey(db, 'p2', 'cred-1')).toBe(false);
    expect(await removePasskey(db, 'p1', 'cred-1')).toBe(true);
    expect(await passkeysOf(db, 'p1')).toEqual([]);
  });

  it("marks a live session as confirmed with a passkey, and not an ended one's", async () => {
    const db = await dbs.fresh(backend);
    await addPerson(db, { personId: 'p1', name: 'ann', role: 'admin', now: T0 });
    await createSession(db, { sessionHash: 's1', personId: 'p1', now: T0, expiresAt: T0 + 1000 });
    expect(await sessionPasskeyAt(db, 's1')).toBeUndefined();
    await markSessionPasskey(db, 's1', T0 + 5);
    expect(await sessionPasskeyAt(db, 's1')).toBe(T0 + 5);
    await createSession(db, { sessionHash: 's2', personId: 'p1', now: T0, expiresAt: T0 + 1000 });
    expect(await endSession(db, 's2', T0 + 6)).toBe(true);
    await markSessionPasskey(db, 's2', T0 + 7);
    expect(await sessionPasskeyAt(db, 's2')).toBeUndefined();
  });

  it('bounds the sign-in challenges anyone may ask for (no session needed) until they expire', async () => {
    const db = await dbs.fresh(backend);
    const clock = new FakeClock();
    const passkeys = new HubPasskeys({
      db,
      clock,
      publicUrl: () => 'https://hub.example:8443',
      maxSignInChallenges: 3,
    });
    expect(passkeys.rpId).toBe('hub.example');
    expect(passkeys.origin).toBe('https://hub.example:8443');
    for (let i = 0; i < 3; i++)
      expect((await passkeys.signInOptions()).userVerification).toBe('required');
    const refused = await passkeys.signInOptions().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HubRefusal);
    expect((refused as HubRefusal).status).toBe(429);
    clock.advance(PASSKEY_CHALLENGE_TTL_MS);
    expect((await passkeys.signInOptions()).rpId).toBe('hub.example');
  });
});
