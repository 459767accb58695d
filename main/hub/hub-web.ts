import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { z } from 'zod';
import type { PersonRole } from '../../shared/hub-protocol';
import {
  HUB_EVENTS_PATH,
  HUB_PAGE_HEADER,
  HUB_WEB_ROLE,
  isHubWebMethod,
} from '../../shared/protocol/hub-web-methods';
import { SECURITY_HEADERS } from '../server/dashboard-guard';
import { serveStatic } from '../server/dashboard-static';
import { readJson, reply } from './hub-http';
import type { SignedInSession } from './hub-passkeys';
import type { PasskeyRouteContext } from './hub-passkeys-web';
import { HubRefusal } from './hub-service';
import { HUB_CSRF_HEADER, sessionCookieHeader, type HubSessions } from './hub-sessions';
import type { hubWebHandlers } from './hub-web-methods';
import type { HubWebEvents } from './hub-web-events';

const SignInBody = z.object({ token: z.string().min(16).max(128) });

/**
 * The team dashboard's side of the hub's HTTP server: the built renderer (the same React UI
 * as the local dashboard, under its CSP), sign-in and sign-out, and `POST /web/api/<method>`.
 *
 * - A sign-in link is `<hub>/#signin=<token>`: the fragment never reaches a server, a log or
 *   a Referer; the page POSTs the token to `/web/session`, which spends it once and sets the
 *   session cookie (HttpOnly, SameSite=Strict, Secure over TLS).
 * - Every POST must not come from another origin (the Origin's host must be the Host, and
 *   Sec-Fetch-Site same-origin when sent) and must be JSON, which a cross-site form cannot send.
 * - Every call but `me` must carry the session's CSRF token (which `me` hands the page), so
 *   even a same-site page that could make the browser send the cookie cannot act.
 * Returns true when it answered; the hub's own `/api/*` is not its business.
 */
export function hubWebRoutes(d: {
  sessions: HubSessions;
  call: ReturnType<typeof hubWebHandlers>;
  staticDir: string;
  now: () => number;
  /** The passkey steps (`/web/passkey/*`, hub-passkeys-web.ts). */
  passkeys?: (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    ctx: PasskeyRouteContext,
  ) => Promise<void>;
  /** Refuses a method that needs `role` to a session that lacks its second factor. */
  secondFactor?: (who: SignedInSession, role: PersonRole) => Promise<void>;
  /** The live update stream (hub-web-events.ts). */
  events?: HubWebEvents;
}) {
  const signIn = async (req: IncomingMessage, res: ServerResponse) => {
    const { token } = SignInBody.parse(await readJson(req));
    const s = await d.sessions.signIn(token);
    res.setHeader(
      'Set-Cookie',
      sessionCookieHeader(
        { sessionId: s.sessionId, expiresAt: s.expiresAt, now: d.now() },
        isTls(req),
      ),
    );
    reply(res, 200, { person: { name: s.person.name, role: s.person.role } });
  };

  const signedIn = async (req: IncomingMessage, o: { csrf: boolean }) => {
    const who = await d.sessions.person(req.headers.cookie);
    if (!who)
      throw new HubRefusal(401, 'not signed in: open the sign-in link a hub admin gave you');
    if (o.csrf && !d.sessions.csrfMatches(who.sessionId, req.headers[HUB_CSRF_HEADER]))
      throw new HubRefusal(403, 'the CSRF token is missing or wrong: reload the page');
    return who;
  };

  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    if (
      path !== '/' &&
      !path.startsWith('/web/') &&
      !path.startsWith('/assets/') &&
      !/^\/[\w.-]+$/.test(path)
    )
      return false;
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    res.setHeader(HUB_PAGE_HEADER, '1');
    if (!path.startsWith('/web/')) {
      await serveStatic(d.staticDir, req, res, path);
      return true;
    }
    res.setHeader('Cache-Control', 'no-store');
    if (path === HUB_EVENTS_PATH && d.events) return d.events.open(req, res).then(() => true);
    try {
      if (req.method !== 'POST') throw new HubRefusal(400, 'use POST');
      if (!isSameOrigin(req)) throw new HubRefusal(403, 'cross-origin request refused');
      if (path === '/web/session') {
        await signIn(req, res);
        return true;
      }
      if (path === '/web/signout') {
        const who = await signedIn(req, { csrf: true });
        await d.sessions.signOut(who.sessionId, who.person);
        d.events?.endSession(who.sessionId);
        res.setHeader('Set-Cookie', sessionCookieHeader(undefined, isTls(req)));
        reply(res, 200, { signedOut: true });
        return true;
      }
      if (path.startsWith('/web/passkey/') && d.passkeys) {
        await d.passkeys(req, res, path, {
          signedIn: () => signedIn(req, { csrf: true }),
          startSession: (s) =>
            res.setHeader('Set-Cookie', sessionCookieHeader({ ...s, now: d.now() }, isTls(req))),
        });
        return true;
      }
      const method = path.slice('/web/api/'.length);
      if (!path.startsWith('/web/api/') || !isHubWebMethod(method))
        throw new HubRefusal(404, `no such method: ${method}`);
      const params = await readJson(req);
      const who = await signedIn(req, { csrf: method !== 'me' });
      await d.secondFactor?.(who, HUB_WEB_ROLE[method]);
      reply(res, 200, { result: await d.call(method, params, who) });
    } catch (error) {
      if (error instanceof HubRefusal)
        reply(res, error.status, { error: error.message, ...error.details });
      else if (error instanceof z.ZodError)
        reply(res, 400, {
          error: 'invalid input',
          issues: error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
        });
      else {
        console.error('gatehouse hub: a dashboard call failed:', error);
        reply(res, 500, { error: 'the hub failed; see its log' });
      }
    }
    return true;
  };
}

/** Over TLS, here or at a proxy in front (which says so): the cookie is then Secure. */
export function isTls(req: IncomingMessage): boolean {
  return (
    (req.socket as TLSSocket).encrypted === true || req.headers['x-forwarded-proto'] === 'https'
  );
}

/**
 * Not from another origin: the Origin a browser sends with every POST names this host (the
 * scheme may differ behind a TLS proxy), and Sec-Fetch-Site, when sent, says same-origin.
 */
function isSameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      return false;
    }
    if (host.toLowerCase() !== (req.headers.host ?? '').toLowerCase()) return false;
  }
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin';
}
