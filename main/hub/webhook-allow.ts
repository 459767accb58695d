import { BlockList, isIP } from 'node:net';
import {
  parseWebhookAllowEntry,
  type WebhookAllowEntryParts,
} from '../../shared/node/webhook-allow-entry';

/**
 * Addresses a webhook may not reach unless the admin lists them: this host and its network
 * (loopback, private, link-local — a cloud's metadata endpoint —, carrier-grade NAT), the
 * unspecified, multicast, reserved and documentation ranges, and IPv6's counterparts.
 */
const SPECIAL = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  SPECIAL.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  // NAT64 and IPv4-compatible forms reach IPv4 addresses (BlockList checks mapped ones as IPv4).
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['::', 96],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  SPECIAL.addSubnet(net, prefix, 'ipv6');

/** The address and its family as a BlockList takes them (it checks `::ffff:a.b.c.d` as IPv4). */
function familyOf(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  return { address: a, family: isIP(a) === 4 ? 'ipv4' : 'ipv6' };
}

/** Whether `address` is loopback, private, link-local or another range a webhook may not reach. */
export function isSpecialAddress(address: string): boolean {
  const a = familyOf(address);
  return SPECIAL.check(a.address, a.family);
}

/** A URL's host as the resolver takes it: lower case, an IPv6 literal without its brackets. */
export function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
}

/**
 * The admin's list, applied. Names and addresses are checked apart:
 * - names: when the list holds any origin, host or host pattern, a webhook's URL must match
 *   one of them (only addresses listed: any name passes this step);
 * - addresses, where the hub connects (each address the name resolves to, at send time): a
 *   public address passes; a special one (isSpecialAddress) only when it is in a listed range,
 *   or when the URL's host is listed by name exactly (an origin or a host, not a pattern: a
 *   pattern covers names that others may point anywhere).
 */
export class WebhookAllow {
  private readonly entries: WebhookAllowEntryParts[];
  private readonly ranges = new BlockList();
  private readonly hasRanges: boolean;

  constructor(list: readonly string[]) {
    this.entries = list.flatMap((s) => {
      const e = parseWebhookAllowEntry(s);
      return e ? [e] : [];
    });
    for (const e of this.entries)
      if (e.kind === 'range') this.ranges.addSubnet(e.address, e.prefix, e.family);
    this.hasRanges = this.entries.some((e) => e.kind === 'range');
  }

  /** Why this URL may not be a webhook by its scheme and name; undefined when it may. */
  refuseUrl(raw: string): string | undefined {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return 'not a URL';
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'not an http(s) URL';
    const names = this.entries.filter((e) => e.kind !== 'range');
    if (names.length === 0) return undefined;
    const host = hostOf(url);
    const matches = names.some((e) =>
      e.kind === 'origin'
        ? e.origin === url.origin
        : e.kind === 'host'
          ? e.host === host
          : e.kind === 'suffix' && host.endsWith(e.suffix),
    );
    return matches ? undefined : `${url.host} is not on the hub's webhook allow-list`;
  }

  /** Why the hub may not connect to `address` for this URL; undefined when it may. */
  refuseAddress(url: URL, address: string): string | undefined {
    if (!isSpecialAddress(address)) return undefined;
    const a = familyOf(address);
    if (this.hasRanges && this.ranges.check(a.address, a.family)) return undefined;
    const host = hostOf(url);
    const named = this.entries.some(
      (e) =>
        (e.kind === 'origin' && e.origin === url.origin) || (e.kind === 'host' && e.host === host),
    );
    if (named) return undefined;
    return `${url.host} resolves to ${address}, a private, loopback or link-local address the hub's webhook allow-list does not allow`;
  }
}
