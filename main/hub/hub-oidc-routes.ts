import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../shared/clock';
import { SECURITY_HEADERS } from '../server/dashboard-guard';
import { reply } from './hub-http';
import { OIDC_LOGIN_TTL_MS, type OidcClients } from './hub-oidc-client';
import { oidcPerson } from './hub-oidc-people';
import { hashSecret } from './hub-service';
import { HUB_SESSION_TTL_MS, sessionCookieHeader } from './hub-sessions';
import { isTls } from './hub-web';
import { appendAudit } from './store/audit-repo';
import {
  countPendingLogins,
  readOidcConfig,
  savePendingLogin,
  spendPendingLogin,
} from './store/oidc-repo';
import { createSession } from './store/sessions-repo';
import type { SqlDatabase } from './store/sql';

/** The cookie that ties a callback to the browser that started the sign-in. */
export const OIDC_BINDING_COOKIE = 'gatehouse_hub_oidc';
const BINDING = /^[A-Za-z0-9_-]{43}$/;
export const OIDC_CALLBACK_PATH = '/auth/oidc/callback';
/**
 * At most this many sign-ins under way at once: `start` needs no credential, so a flood of it
 * must not grow the table without bound (each row lives 10 minutes).
 */
const MAX_PENDING_LOGINS = 10_000;

/** The redirect URL to register at the provider: the hub's public address, then the callback. */
export const oidcRedirectUrl = (publicUrl: string): string =>
  new URL(OIDC_CALLBACK_PATH, publicUrl).toString();

class SignInRefused extends Error {
  constructor(
    readonly status: 400 | 403 | 502,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Single sign-on's pages, all 404 while it is off:
 * - `GET /auth/oidc/start`: a new sign-in: its state, nonce and PKCE verifier are stored under
 *   the hash of a random binding id, which the browser gets in a short-lived cookie (SameSite
 *   Lax: it must come back with the provider's top-level redirect), then off to the provider.
 * - `GET /auth/oidc/callback`: spends the binding's row (once), has openid-client check the
 *   answer and the tokens, finds or makes the person, replaces their provider groups and
 *   signs the browser in with the same session cookie a sign-in link gives. A callback
 *   without the cookie (opened in another browser: login CSRF), with another state, replayed
 *   or with a code of another client is refused and audited. No token or secret is logged.
 */
export function oidcRoutes(d: {
  db: SqlDatabase;
  clock: Clock;
  clients: OidcClients;
  publicUrl: () => string;
}) {
  const start = async (req: IncomingMessage, res: ServerResponse) => {
    const s = (await readOidcConfig(d.db))!;
    const now = d.clock.now();
    if ((await countPendingLogins(d.db, now)) >= MAX_PENDING_LOGINS) {
      res.writeHead(429, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '60' });
      res.end('Gatehouse hub: too many sign-ins under way; try again in a minute\n');
      return;
    }
    const binding = randomBytes(32).toString('base64url');
    const auth = await d.clients.authorizationUrl(s, oidcRedirectUrl(d.publicUrl()));
    await savePendingLogin(d.db, {
      bindingHash: hashSecret(binding),
      state: auth.state,
      nonce: auth.nonce,
      codeVerifier: auth.codeVerifier,
      now,
      expiresAt: now + OIDC_LOGIN_TTL_MS,
    });
    res.setHeader('Set-Cookie', bindingCookie(binding, isTls(req)));
    res.writeHead(303, { location: auth.url.toString() });
    res.end();
  };

  const callback = async (req: IncomingMessage, res: ServerResponse) => {
    const s = (await readOidcConfig(d.db))!;
    const now = d.clock.now();
    try {
      const binding = cookieValue(req.headers.cookie, OIDC_BINDING_COOKIE);
      if (!binding || !BINDING.test(binding))
        throw new SignInRefused(
          400,
          'no-binding',
          'this sign-in was not started in this browser: start again from the hub',
        );
      const pending = await spendPendingLogin(d.db, hashSecret(binding), now);
      if (!pending)
        throw new SignInRefused(
          400,
          'unknown-binding',
          'this sign-in is over (used already, or too old): start again from the hub',
        );
      const callbackUrl = new URL(oidcRedirectUrl(d.publicUrl()));
      callbackUrl.search = new URL(req.url ?? '/', 'http://hub').search;
      let identity;
      try {
        identity = await d.clients.finish(s, callbackUrl, pending);
      } catch (error) {
        throw new SignInRefused(
          403,
          'provider-answer',
          `the identity provider's answer was refused: ${describeOidcError(error)}`,
        );
      }
      const sessionId = randomBytes(32).toString('base64url');
      const expiresAt = now + HUB_SESSION_TTL_MS;
      const outcome = await d.db.transaction(async (tx) => {
        const found = await oidcPerson(tx, s, identity, now);
        if (!found.ok) return found;
        await createSession(tx, {
          sessionHash: hashSecret(sessionId),
          personId: found.person.personId,
          now,
          expiresAt,
        });
        await appendAudit(tx, now, {
          type: 'person.signed_in',
          actor: found.person.name,
          data: {
            via: 'oidc',
            role: found.person.role,
            groups: found.groups,
            ...(found.created ? { created: true } : {}),
          },
        });
        return found;
      });
      if (!outcome.ok)
        throw new SignInRefused(
          403,
          outcome.reason,
          'you are not on this hub yet: ask a hub admin to invite you (gatehouse hub sso invite)',
        );
      res.setHeader('Set-Cookie', [
        sessionCookieHeader({ sessionId, expiresAt, now }, isTls(req)),
        bindingCookie('', isTls(req)),
      ]);
      res.writeHead(303, { location: '/' });
      res.end();
    } catch (error) {
      if (!(error instanceof SignInRefused)) throw error;
      await appendAudit(d.db, now, {
        type: 'person.sign_in_refused',
        data: { via: 'oidc', reason: error.reason },
      });
      res.setHeader('Set-Cookie', bindingCookie('', isTls(req)));
      res.writeHead(error.status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`Gatehouse hub: sign-in refused: ${error.message}\n`);
    }
  };

  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    if (!path.startsWith('/auth/oidc/')) return false;
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    res.setHeader('Cache-Control', 'no-store');
    try {
      const s = req.method === 'GET' ? await readOidcConfig(d.db) : undefined;
      if (!s) {
        reply(res, 404, { error: `no such endpoint: ${req.method} ${path}` });
        return true;
      }
      if (path === '/auth/oidc/start') await start(req, res);
      else if (path === OIDC_CALLBACK_PATH) await callback(req, res);
      else reply(res, 404, { error: `no such endpoint: GET ${path}` });
    } catch (error) {
      console.error(`gatehouse hub: single sign-on failed: ${(error as Error).message}`);
      reply(res, 502, { error: 'single sign-on failed: see the hub log' });
    }
    return true;
  };
}

function bindingCookie(value: string, secure: boolean): string {
  return [
    `${OIDC_BINDING_COOKIE}=${value}`,
    'Path=/auth/oidc/',
    `Max-Age=${value ? OIDC_LOGIN_TTL_MS / 1000 : 0}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq >= 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * What went wrong, from openid-client's error and its causes: their messages and an OAuth
 * error's code and description, nothing else (a cause may hold a whole response).
 */
export function describeOidcError(error: unknown): string {
  const parts: string[] = [];
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const o = e as {
      message?: unknown;
      error?: unknown;
      error_description?: unknown;
      cause?: unknown;
    };
    for (const v of [o.message, o.error, o.error_description])
      if (typeof v === 'string' && v && !parts.includes(v)) parts.push(v.slice(0, 200));
    e = o.cause;
  }
  return parts.join(': ') || 'unknown error';
}
