import { createHmac, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { rotateDashboardSecret } from '../../shared/node/dashboard-secret';
import { secretsEqual } from '../../shared/node/secrets-equal';
import { ensureAdminToken } from './admin-token';

export { dashboardSecretPath } from '../../shared/node/dashboard-secret';

/** A browser stays signed in this long (Chrome's cap on a cookie's lifetime, 400 days). */
export const SESSION_MAX_AGE_S = 400 * 24 * 3600;

/** Separates a session cookie's MAC from any other HMAC made with the secret. */
const COOKIE_CONTEXT = 'gatehouse-dashboard-session-v1.';

/**
 * The dashboard's secret and the browser sessions it signs.
 *
 * The printed URL carries the secret in its fragment; the page trades it once for a session
 * cookie (HttpOnly, SameSite=Strict, 400 days), so every later link to the dashboard —
 * `#request=<id>` in a notification, a bookmark — opens signed in, also after a restart.
 * A cookie is `<random id>.<HMAC(secret, id)>`: nothing is stored per session, and rotating
 * the secret (`gatehouse dashboard --rotate-secret`, which rewrites the file) signs every
 * browser out at once. The file is read again whenever it changes, so a rotation by the CLI
 * takes effect in the running daemon without a restart.
 */
export class DashboardSessions {
  private cached?: { secret: string; stamp: string } | undefined;

  constructor(private readonly file: string) {}

  /** The current secret; created on first use. */
  secret(): string {
    const stamp = fileStamp(this.file);
    if (this.cached && stamp !== undefined && stamp === this.cached.stamp)
      return this.cached.secret;
    const secret = ensureAdminToken(this.file);
    this.cached = { secret, stamp: fileStamp(this.file) ?? '' };
    return secret;
  }

  /** Replaces the secret: every browser signed in with the old one is signed out. */
  rotate(): string {
    const secret = rotateDashboardSecret(this.file);
    this.cached = undefined;
    return secret;
  }

  /** True when `presented` is the secret (constant time). */
  secretMatches(presented: string | string[] | undefined): boolean {
    if (typeof presented !== 'string' || presented.length === 0) return false;
    return secretsEqual(presented, this.secret());
  }

  /**
   * The cookie's name. Cookies are scoped by host, not port, so two Gatehouse instances on
   * one machine (another GATEHOUSE_HOME, another port) keep their own.
   */
  cookieName(port: number): string {
    return `gatehouse_session_${port}`;
  }

  /** A `Set-Cookie` value signing a browser in. */
  newSessionCookie(port: number, secure: boolean): string {
    const id = randomBytes(18).toString('base64url');
    const value = `${id}.${this.mac(port, id)}`;
    return [
      `${this.cookieName(port)}=${value}`,
      'Path=/',
      `Max-Age=${SESSION_MAX_AGE_S}`,
      'HttpOnly',
      'SameSite=Strict',
      ...(secure ? ['Secure'] : []),
    ].join('; ');
  }

  /** True when the `Cookie` header holds a session cookie signed with the current secret. */
  hasSession(cookieHeader: string | undefined, port: number): boolean {
    if (!cookieHeader) return false;
    const name = this.cookieName(port);
    for (const part of cookieHeader.split(';')) {
      const eq = part.indexOf('=');
      if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
      const value = part.slice(eq + 1).trim();
      const dot = value.indexOf('.');
      if (dot <= 0) continue;
      if (secretsEqual(value.slice(dot + 1), this.mac(port, value.slice(0, dot)))) return true;
    }
    return false;
  }

  /** Over the port too: a cookie signs in the instance on that port only. */
  private mac(port: number, id: string): string {
    return createHmac('sha256', this.secret())
      .update(`${COOKIE_CONTEXT}${port}.`)
      .update(id)
      .digest('base64url');
  }
}

/** What changes when the file is replaced or rewritten; undefined when it does not exist. */
function fileStamp(file: string): string | undefined {
  try {
    const s = statSync(file);
    return `${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch {
    return undefined;
  }
}
