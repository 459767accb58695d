import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../../shared/clock';
import { secretsEqual } from '../../shared/node/secrets-equal';
import { appendAudit } from './store/audit-repo';
import type { Person } from './store/people-repo';
import { createSession, endSession, sessionPerson, spendSignInToken } from './store/sessions-repo';
import type { SqlDatabase } from './store/sql';
import { HubRefusal } from './hub-service';

/** How long a browser stays signed in to the hub without signing in again. */
export const HUB_SESSION_TTL_MS = 7 * 24 * 60 * 60_000;
/** The session cookie's name: one hub per origin, so no port in it. */
export const HUB_SESSION_COOKIE = 'gatehouse_hub_session';
/** The header a signed-in page sends its session's CSRF token in, on every call. */
export const HUB_CSRF_HEADER = 'x-gatehouse-csrf';

const hash = (secret: string): string => createHash('sha256').update(secret).digest('hex');
/** A session id: 32 random bytes, base64url (43 characters); nothing else is accepted. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/**
 * Browser sessions on the hub. A sign-in link carries a single-use token (in its fragment, so
 * it reaches the server only in the page's POST, never in a log or a Referer); spending it
 * makes a session whose random id is the cookie's value (HttpOnly, SameSite=Strict, Secure
 * over TLS) and whose hash is stored in PostgreSQL with its expiry, so every replica accepts
 * it and none keeps any of its own. Each session has a CSRF token derived from its id with the
 * hub's key: the page reads it once (`me`) and sends it on each call; a page of another origin
 * can neither read it nor make the browser send the cookie.
 */
export class HubSessions {
  private readonly csrfKey: Buffer;

  constructor(private readonly d: { db: SqlDatabase; clock: Clock; csrfSecret: string }) {
    this.csrfKey = createHash('sha256').update(`gatehouse-hub-csrf-v1\n${d.csrfSecret}`).digest();
  }

  /** Spends a sign-in token for a new session; audited whether it works or not. */
  async signIn(token: string): Promise<{ sessionId: string; person: Person; expiresAt: number }> {
    const now = this.d.clock.now();
    const sessionId = randomBytes(32).toString('base64url');
    const expiresAt = now + HUB_SESSION_TTL_MS;
    const outcome = await this.d.db.transaction(async (tx) => {
      const spent = await spendSignInToken(tx, hash(token), now);
      if (!spent.ok) {
        await appendAudit(tx, now, {
          type: 'person.sign_in_refused',
          data: { reason: spent.reason },
        });
        return spent;
      }
      await createSession(tx, {
        sessionHash: hash(sessionId),
        personId: spent.person.personId,
        now,
        expiresAt,
      });
      await appendAudit(tx, now, {
        type: 'person.signed_in',
        actor: spent.person.name,
        data: { role: spent.person.role },
      });
      return spent;
    });
    if (!outcome.ok)
      throw new HubRefusal(
        401,
        `this sign-in link is ${outcome.reason === 'unknown' ? 'not known' : outcome.reason === 'used' ? 'already used' : 'expired'}: ask a hub admin for a new one`,
      );
    return { sessionId, person: outcome.person, expiresAt };
  }

  /** The person whose live session the request's cookie carries. */
  async person(
    cookieHeader: string | undefined,
  ): Promise<{ person: Person; sessionId: string } | undefined> {
    const sessionId = sessionCookie(cookieHeader);
    if (!sessionId) return undefined;
    const person = await sessionPerson(this.d.db, hash(sessionId), this.d.clock.now());
    return person ? { person, sessionId } : undefined;
  }

  async signOut(sessionId: string, person: Person): Promise<void> {
    const now = this.d.clock.now();
    await this.d.db.transaction(async (tx) => {
      if (await endSession(tx, hash(sessionId), now))
        await appendAudit(tx, now, { type: 'person.signed_out', actor: person.name });
    });
  }

  csrfToken(sessionId: string): string {
    return createHmac('sha256', this.csrfKey).update(sessionId).digest('base64url');
  }

  csrfMatches(sessionId: string, presented: string | string[] | undefined): boolean {
    return typeof presented === 'string' && presented.length > 0
      ? secretsEqual(presented, this.csrfToken(sessionId))
      : false;
  }
}

/** The `Set-Cookie` value that signs a browser in (or, with no id, out). */
export function sessionCookieHeader(
  session: { sessionId: string; expiresAt: number; now: number } | undefined,
  secure: boolean,
): string {
  const maxAge = session ? Math.floor((session.expiresAt - session.now) / 1000) : 0;
  return [
    `${HUB_SESSION_COOKIE}=${session?.sessionId ?? ''}`,
    'Path=/',
    `Max-Age=${maxAge}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** The session id in a `Cookie` header, when it has the shape of one. */
export function sessionCookie(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== HUB_SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (SESSION_ID.test(value)) return value;
  }
  return undefined;
}
