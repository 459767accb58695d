import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { z } from 'zod';
import type { Clock } from '../../shared/clock';
import type { PersonRole } from '../../shared/hub-protocol';
import {
  PASSKEY_REQUIRED,
  type PasskeyAssertion,
  type PasskeyRegistration,
  type PasskeyStatus,
} from '../../shared/protocol/hub-passkeys';
import { HUB_SESSION_TTL_MS } from './hub-sessions';
import { hashSecret, HubRefusal } from './hub-service';
import { appendAudit } from './store/audit-repo';
import {
  addPasskey,
  liveChallenges,
  markSessionPasskey,
  passkeyById,
  passkeysOf,
  recordPasskeyUse,
  removePasskey,
  saveChallenge,
  sessionPasskeyAt,
  spendChallenge,
  type ChallengePurpose,
  type StoredPasskey,
} from './store/passkeys-repo';
import type { Person } from './store/people-repo';
import { createSession } from './store/sessions-repo';
import type { SqlDatabase } from './store/sql';

/** How long a challenge handed to a browser stays good: one ceremony, with a person in it. */
export const PASSKEY_CHALLENGE_TTL_MS = 2 * 60_000;
const CEREMONY_TIMEOUT_MS = 60_000;
/**
 * At most this many sign-in challenges live at once: asking for one needs no session, so
 * without a bound anyone could fill the table; a team signs in far less often than this.
 */
export const MAX_LIVE_SIGN_IN_CHALLENGES = 1_000;

export interface SignedInSession {
  person: Person;
  sessionId: string;
}

/** The challenge a browser's answer was made for (its clientDataJSON says, signed or not). */
const ClientData = z.object({ challenge: z.string().min(1).max(512) });

/**
 * Passkeys (WebAuthn) on the hub, through @simplewebauthn/server: registering them, signing in
 * with one, and confirming an admin's session with one (the second factor). The relying party
 * is the hub's public URL: its host name is the RP ID and its origin the only origin accepted.
 * Every challenge lives in the database and is spent once by whichever replica receives the
 * answer; user verification is required; the signature counter must grow, and a passkey whose
 * counter goes back (a cloned authenticator) is refused and audited.
 */
export class HubPasskeys {
  constructor(
    private readonly d: {
      db: SqlDatabase;
      clock: Clock;
      /** The hub's public URL (known once it listens, when not given). */
      publicUrl: () => string;
      rpName?: string;
      /** MAX_LIVE_SIGN_IN_CHALLENGES unless a test wants fewer. */
      maxSignInChallenges?: number;
    },
  ) {}

  /** The relying party's id: the public URL's host name (no port, no scheme). */
  get rpId(): string {
    return new URL(this.d.publicUrl()).hostname;
  }

  /** The one origin a passkey answer may come from. */
  get origin(): string {
    return new URL(this.d.publicUrl()).origin;
  }

  /** Options for a new passkey of the signed-in person (their others excluded). */
  async registrationOptions(who: SignedInSession): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await passkeysOf(this.d.db, who.person.personId);
    await this.mustBeConfirmedToChange(who, existing, 'add another passkey');
    const options = await generateRegistrationOptions({
      rpName: this.d.rpName ?? 'Gatehouse hub',
      rpID: this.rpId,
      userName: who.person.name,
      userDisplayName: who.person.name,
      // The person's id, not their name: a renamed person keeps their passkeys.
      userID: new TextEncoder().encode(who.person.personId),
      attestationType: 'none',
      timeout: CEREMONY_TIMEOUT_MS,
      excludeCredentials: existing.map((p) => ({
        id: p.credentialId,
        transports: p.transports,
      })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await this.keepChallenge(options.challenge, 'register', who.sessionId);
    return options;
  }

  /**
   * Verifies and stores a new passkey for the session's person. The challenge must be the one
   * this session asked for, so an answer made for one person's session cannot land on another
   * person's account; a credential id already on the hub is refused. Registering also confirms
   * the session: for an admin with no passkey yet, this is how the first one bootstraps.
   */
  async register(who: SignedInSession, response: PasskeyRegistration): Promise<{ id: string }> {
    const now = this.d.clock.now();
    await this.spend(response.response.clientDataJSON, 'register', who, now);
    const existing = await passkeysOf(this.d.db, who.person.personId);
    await this.mustBeConfirmedToChange(who, existing, 'add another passkey');
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response: registrationJson(response),
        expectedChallenge: () => true,
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        requireUserVerification: true,
      });
    } catch (error) {
      throw await this.refuse(who.person, 'register', errorText(error));
    }
    if (!verified.verified || !verified.registrationInfo)
      throw await this.refuse(who.person, 'register', 'the registration did not verify');
    const { credential } = verified.registrationInfo;
    const id = credential.id;
    const added = await this.d.db.transaction(async (tx) => {
      const ok = await addPasskey(tx, {
        credentialId: id,
        personId: who.person.personId,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
        createdAt: now,
      });
      if (!ok) return false;
      await markSessionPasskey(tx, hashSecret(who.sessionId), now);
      await appendAudit(tx, now, {
        type: 'person.passkey_added',
        actor: who.person.name,
        data: { credential: id },
      });
      return true;
    });
    if (!added)
      throw await this.refuse(who.person, 'register', 'this passkey is already registered', 409);
    return { id };
  }

  /** Options for signing in with a passkey: usernameless, any passkey of this hub. */
  async signInOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const live = await liveChallenges(this.d.db, 'sign_in', this.d.clock.now());
    if (live >= (this.d.maxSignInChallenges ?? MAX_LIVE_SIGN_IN_CHALLENGES))
      throw new HubRefusal(429, 'too many passkey sign-ins under way: try again in a minute');
    const options = await generateAuthenticationOptions({
      rpID: this.rpId,
      userVerification: 'required',
      timeout: CEREMONY_TIMEOUT_MS,
    });
    await this.keepChallenge(options.challenge, 'sign_in');
    return options;
  }

  /** Verifies an assertion and opens a browser session, confirmed with the passkey. */
  async signIn(
    response: PasskeyAssertion,
  ): Promise<{ sessionId: string; person: Person; expiresAt: number }> {
    const now = this.d.clock.now();
    await this.spend(response.response.clientDataJSON, 'sign_in', undefined, now);
    const person = await this.verifyAssertion(response, now, undefined);
    const sessionId = randomBytes(32).toString('base64url');
    const expiresAt = now + HUB_SESSION_TTL_MS;
    await this.d.db.transaction(async (tx) => {
      await createSession(tx, {
        sessionHash: hashSecret(sessionId),
        personId: person.personId,
        now,
        expiresAt,
      });
      await markSessionPasskey(tx, hashSecret(sessionId), now);
      await appendAudit(tx, now, {
        type: 'person.signed_in',
        actor: person.name,
        data: { role: person.role, via: 'passkey', credential: response.id },
      });
    });
    return { sessionId, person, expiresAt };
  }

  /** Options for confirming the signed-in person's session with one of their passkeys. */
  async stepUpOptions(who: SignedInSession): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const existing = await passkeysOf(this.d.db, who.person.personId);
    if (existing.length === 0)
      throw new HubRefusal(409, 'you have no passkey yet: add one first', {
        secondFactor: 'register',
      });
    const options = await generateAuthenticationOptions({
      rpID: this.rpId,
      userVerification: 'required',
      timeout: CEREMONY_TIMEOUT_MS,
      allowCredentials: existing.map((p) => ({
        id: p.credentialId,
        transports: p.transports,
      })),
    });
    await this.keepChallenge(options.challenge, 'step_up', who.sessionId);
    return options;
  }

  /** Confirms the session with an assertion by one of its own person's passkeys. */
  async stepUp(who: SignedInSession, response: PasskeyAssertion): Promise<void> {
    const now = this.d.clock.now();
    await this.spend(response.response.clientDataJSON, 'step_up', who, now);
    await this.verifyAssertion(response, now, who.person);
    await this.d.db.transaction(async (tx) => {
      await markSessionPasskey(tx, hashSecret(who.sessionId), now);
      await appendAudit(tx, now, {
        type: 'person.passkey_confirmed',
        actor: who.person.name,
        data: { credential: response.id },
      });
    });
  }

  async status(who: SignedInSession): Promise<PasskeyStatus> {
    const passkeys = await passkeysOf(this.d.db, who.person.personId);
    const confirmed = await this.confirmed(who);
    return {
      passkeys: passkeys.map((p) => ({
        id: p.credentialId,
        createdAt: p.createdAt,
        transports: p.transports,
        ...(p.lastUsedAt !== undefined ? { lastUsedAt: p.lastUsedAt } : {}),
      })),
      confirmed,
      secondFactor:
        who.person.role !== 'admin'
          ? 'not-needed'
          : confirmed
            ? 'done'
            : passkeys.length === 0
              ? 'register'
              : 'confirm',
    };
  }

  /** Removes one of the person's own passkeys (an admin's session must be confirmed). */
  async remove(who: SignedInSession, credentialId: string): Promise<void> {
    const existing = await passkeysOf(this.d.db, who.person.personId);
    await this.mustBeConfirmedToChange(who, existing, 'remove a passkey');
    const now = this.d.clock.now();
    const removed = await this.d.db.transaction(async (tx) => {
      if (!(await removePasskey(tx, who.person.personId, credentialId))) return false;
      await appendAudit(tx, now, {
        type: 'person.passkey_removed',
        actor: who.person.name,
        data: { credential: credentialId },
      });
      return true;
    });
    if (!removed) throw new HubRefusal(404, 'you have no passkey with that id');
  }

  /**
   * The second factor: an action that needs the admin role, from a browser, needs an admin's
   * session confirmed with a passkey (signed in with one, or stepped up since).
   */
  async requireSecondFactor(who: SignedInSession, needed: PersonRole): Promise<void> {
    if (needed !== 'admin' || (await this.confirmed(who))) return;
    const has = (await passkeysOf(this.d.db, who.person.personId)).length > 0;
    throw new HubRefusal(
      403,
      `${PASSKEY_REQUIRED}: ${has ? 'confirm with your passkey' : 'add a passkey'} before an admin action`,
      { secondFactor: has ? 'confirm' : 'register' },
    );
  }

  private async confirmed(who: SignedInSession): Promise<boolean> {
    return (await sessionPasskeyAt(this.d.db, hashSecret(who.sessionId))) !== undefined;
  }

  /**
   * An admin who has a passkey changes their passkeys only from a confirmed session: otherwise
   * whoever holds a sign-in link could add their own passkey (or strip the admin's) and pass the
   * second factor with it.
   */
  private async mustBeConfirmedToChange(
    who: SignedInSession,
    existing: StoredPasskey[],
    what: string,
  ): Promise<void> {
    if (who.person.role !== 'admin' || existing.length === 0) return;
    if (await this.confirmed(who)) return;
    throw new HubRefusal(403, `${PASSKEY_REQUIRED}: confirm with your passkey to ${what}`, {
      secondFactor: 'confirm',
    });
  }

  private async keepChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    sessionId?: string,
  ): Promise<void> {
    const now = this.d.clock.now();
    await saveChallenge(this.d.db, {
      challenge,
      purpose,
      ...(sessionId ? { sessionHash: hashSecret(sessionId) } : {}),
      now,
      expiresAt: now + PASSKEY_CHALLENGE_TTL_MS,
    });
  }

  /**
   * Spends the challenge the answer names before anything else is looked at: a replayed answer
   * finds its challenge gone, and a challenge made for another session (or purpose) is refused.
   */
  private async spend(
    clientDataJSON: string,
    purpose: ChallengePurpose,
    who: SignedInSession | undefined,
    now: number,
  ): Promise<void> {
    let challenge: string;
    try {
      challenge = ClientData.parse(
        JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')),
      ).challenge;
    } catch {
      throw new HubRefusal(400, 'the passkey answer has no readable client data');
    }
    const ok = await spendChallenge(this.d.db, {
      challenge,
      purpose,
      ...(who ? { sessionHash: hashSecret(who.sessionId) } : {}),
      now,
    });
    if (!ok)
      throw await this.refuse(
        who?.person,
        purpose,
        'its challenge is unknown, already used, expired or not for this session',
      );
  }

  /**
   * Checks an assertion against the stored passkey (of `owner` when given) and records the
   * counter it signed; the person it belongs to.
   */
  private async verifyAssertion(
    response: PasskeyAssertion,
    now: number,
    owner: Person | undefined,
  ): Promise<Person> {
    const purpose: ChallengePurpose = owner ? 'step_up' : 'sign_in';
    const found = await passkeyById(this.d.db, response.id);
    if (!found || (owner && found.person.personId !== owner.personId))
      throw await this.refuse(owner, purpose, 'this passkey is not registered on the hub');
    let newCounter: number;
    try {
      const verified = await verifyAuthenticationResponse({
        response: assertionJson(response),
        // Spent above, against the database.
        expectedChallenge: () => true,
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        requireUserVerification: true,
        credential: {
          id: found.passkey.credentialId,
          publicKey: new Uint8Array(Buffer.from(found.passkey.publicKey, 'base64url')),
          // The counter is checked below, atomically with its update, so that two replicas
          // accepting the same counter cannot both succeed.
          counter: 0,
          transports: found.passkey.transports,
        },
      });
      if (!verified.verified) throw new Error('the signature did not verify');
      newCounter = verified.authenticationInfo.newCounter;
    } catch (error) {
      throw await this.refuse(found.person, purpose, errorText(error));
    }
    if (!(await recordPasskeyUse(this.d.db, found.passkey.credentialId, newCounter, now))) {
      await appendAudit(this.d.db, now, {
        type: 'person.passkey_counter_regressed',
        actor: found.person.name,
        data: {
          credential: found.passkey.credentialId,
          stored: found.passkey.counter,
          presented: newCounter,
        },
      });
      throw new HubRefusal(
        401,
        'this passkey signed an old counter: it may have been cloned; it is refused (the hub audit has it)',
      );
    }
    return found.person;
  }

  /** Audits a refused ceremony and makes the refusal to answer with. */
  private async refuse(
    person: Person | undefined,
    purpose: ChallengePurpose,
    reason: string,
    status: 401 | 409 = 401,
  ): Promise<HubRefusal> {
    await appendAudit(this.d.db, this.d.clock.now(), {
      type: 'person.passkey_refused',
      ...(person ? { actor: person.name } : {}),
      data: { purpose, reason },
    });
    return new HubRefusal(status, `the passkey was refused: ${reason}`);
  }
}

const errorText = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** The library's shape of a registration (which has no optional property set to undefined). */
function registrationJson(r: PasskeyRegistration): RegistrationResponseJSON {
  const { authenticatorData, transports, publicKeyAlgorithm, publicKey, ...required } = r.response;
  return {
    id: r.id,
    rawId: r.rawId,
    type: r.type,
    clientExtensionResults: {},
    ...(r.authenticatorAttachment ? { authenticatorAttachment: r.authenticatorAttachment } : {}),
    response: {
      ...required,
      ...(authenticatorData !== undefined ? { authenticatorData } : {}),
      ...(transports !== undefined ? { transports } : {}),
      ...(publicKeyAlgorithm !== undefined ? { publicKeyAlgorithm } : {}),
      ...(publicKey !== undefined ? { publicKey } : {}),
    },
  };
}

/** The library's shape of an assertion. */
function assertionJson(r: PasskeyAssertion): AuthenticationResponseJSON {
  const { userHandle, ...required } = r.response;
  return {
    id: r.id,
    rawId: r.rawId,
    type: r.type,
    clientExtensionResults: {},
    ...(r.authenticatorAttachment ? { authenticatorAttachment: r.authenticatorAttachment } : {}),
    response: { ...required, ...(userHandle !== undefined ? { userHandle } : {}) },
  };
}
