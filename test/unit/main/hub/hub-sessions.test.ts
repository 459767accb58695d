import { describe, expect, it } from 'vitest';
import {
  HUB_SESSION_COOKIE,
  sessionCookie,
  sessionCookieHeader,
} from '../../../../main/hub/hub-sessions';

const id = 'A'.repeat(43);

describe('the hub session cookie', () => {
  it('is HttpOnly and SameSite=Strict, Secure only over TLS, and lives as long as the session', () => {
    const now = 1_000_000;
    const header = sessionCookieHeader({ sessionId: id, expiresAt: now + 3_600_000, now }, false);
    expect(header).toBe(
      `${HUB_SESSION_COOKIE}=${id}; Path=/; Max-Age=3600; HttpOnly; SameSite=Strict`,
    );
    expect(sessionCookieHeader({ sessionId: id, expiresAt: now + 1000, now }, true)).toMatch(
      /; Secure$/,
    );
  });

  it('signs out with an empty value that expires at once', () => {
    expect(sessionCookieHeader(undefined, false)).toBe(
      `${HUB_SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`,
    );
  });

  it('reads only a value of the right shape from the Cookie header, among other cookies', () => {
    expect(sessionCookie(`other=1; ${HUB_SESSION_COOKIE}=${id}; x=y`)).toBe(id);
    expect(sessionCookie(undefined)).toBeUndefined();
    expect(sessionCookie(`${HUB_SESSION_COOKIE}=short`)).toBeUndefined();
    expect(sessionCookie(`${HUB_SESSION_COOKIE}=${'A'.repeat(42)}'`)).toBeUndefined();
    expect(sessionCookie(`${HUB_SESSION_COOKIE}x=${id}`)).toBeUndefined();
    // A name that only ends like it is another cookie.
    expect(sessionCookie(`evil_${HUB_SESSION_COOKIE}=${id}`)).toBeUndefined();
  });
});
