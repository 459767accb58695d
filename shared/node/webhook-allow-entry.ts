import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * One entry of the hub's webhook allow-list (`gatehouse hub webhook-allow add ENTRY`):
 * - an origin, `https://hooks.example.com` or `http://10.0.0.5:8080` (scheme, host, port);
 * - a host, `hooks.example.com` (either scheme, any port);
 * - a host pattern, `*.example.com` (its subdomains, not the name itself);
 * - an address or range, `127.0.0.1`, `10.0.0.0/8`, `fd00::/8`.
 */
export const WebhookAllowEntry = z
  .string()
  .trim()
  .min(1)
  .max(512)
  .refine((s) => parseWebhookAllowEntry(s) !== undefined, {
    message:
      'expected an origin (https://host[:port]), a host, a host pattern (*.example.com) or an address or range (10.0.0.0/8)',
  });
export const WebhookAllowList = z.array(WebhookAllowEntry).max(200);
export type WebhookAllowList = z.infer<typeof WebhookAllowList>;

export type WebhookAllowEntryParts =
  | { kind: 'origin'; origin: string }
  | { kind: 'host'; host: string }
  | { kind: 'suffix'; suffix: string }
  | { kind: 'range'; address: string; prefix: number; family: 'ipv4' | 'ipv6' };

const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** What an entry is, or undefined when it is none of the four. */
export function parseWebhookAllowEntry(raw: string): WebhookAllowEntryParts | undefined {
  const s = raw.trim().toLowerCase();
  if (/^https?:\/\//.test(s)) {
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      return undefined;
    }
    // An origin only: no user, path, query or fragment.
    if (u.username || u.password || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash)
      return undefined;
    return { kind: 'origin', origin: u.origin };
  }
  if (s.startsWith('*.')) {
    const rest = s.slice(2);
    return HOST_NAME.test(rest) && rest.includes('.')
      ? { kind: 'suffix', suffix: `.${rest}` }
      : undefined;
  }
  const [address, bits, extra] = s.replace(/^\[|\]$/g, '').split('/');
  const family = isIP(address ?? '');
  if (family && extra === undefined) {
    const max = family === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : Number(bits);
    if (
      !Number.isInteger(prefix) ||
      prefix < 0 ||
      prefix > max ||
      (bits !== undefined && !/^\d+$/.test(bits))
    )
      return undefined;
    return { kind: 'range', address: address!, prefix, family: family === 4 ? 'ipv4' : 'ipv6' };
  }
  return HOST_NAME.test(s) ? { kind: 'host', host: s } : undefined;
}
