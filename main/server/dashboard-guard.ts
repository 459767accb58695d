import { secretsEqual } from '../../shared/node/secrets-equal';
import type { IncomingHttpHeaders } from 'node:http';

/** The header that carries the per-start dashboard secret on every API call. */
export { DASHBOARD_SECRET_HEADER as SECRET_HEADER } from '../../shared/protocol/constants';

/**
 * The Content-Security-Policy of every dashboard page. Nothing inline, nothing evaluated,
 * nothing from another origin: the bundle, its stylesheet and the loopback API only.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers sent on every response, static or API. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // The secret lives in the URL fragment, which browsers never send; this is belt and braces.
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * True when the Host header names this server on loopback. A page on another site that
 * rebinds its DNS name to 127.0.0.1 sends its own name as Host, so this refuses it.
 */
export function isAllowedHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const h = host.toLowerCase();
  return h === `127.0.0.1:${port}` || h === `localhost:${port}`;
}

/**
 * True when the request does not come from another origin. Browsers send `Origin` on
 * cross-origin fetches and on every POST, and `Sec-Fetch-Site` on all requests; a non-browser
 * client (curl, tests) sends neither and is judged by the secret alone.
 */
export function isSameOrigin(headers: IncomingHttpHeaders, port: number): boolean {
  const origin = headers.origin;
  if (origin !== undefined) {
    const o = origin.toLowerCase();
    if (o !== `http://127.0.0.1:${port}` && o !== `http://localhost:${port}`) return false;
  }
  const site = headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

/**
 * Compares the presented secret with the expected one in constant time (see secretsEqual:
 * the one comparison of secrets in the project).
 */
export function secretMatches(presented: string | string[] | undefined, expected: string): boolean {
  if (typeof presented !== 'string' || presented.length === 0) return false;
  return secretsEqual(presented, expected);
}
