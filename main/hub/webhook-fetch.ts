import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { PermanentWebhookError } from '../notify/webhook-channel';
import { hostOf, type WebhookAllow } from './webhook-allow';

/** Thrown when the allow-list refuses a webhook; the channel does not retry it. */
export class WebhookRefused extends PermanentWebhookError {}

/**
 * A `fetch` for a person's webhook that connects only where the hub's allow-list lets it. The
 * name is checked, then each address it resolves to is checked in the socket's own lookup,
 * the one the connection then uses: a name that resolved to a public address when it was
 * saved and to 127.0.0.1 now (DNS rebinding) is refused now. Redirects are never followed (a
 * 3xx is an answer, which the webhook channel does not retry), so a receiver cannot bounce
 * the hub to an address the list refuses. `allow` is read at each call: the admin's newest list.
 */
export function allowListFetch(allow: () => Promise<WebhookAllow>): typeof fetch {
  const guarded = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const list = await allow();
    const refusedName = list.refuseUrl(url.href);
    if (refusedName) throw new WebhookRefused(refusedName);
    const host = hostOf(url);
    if (isIP(host)) {
      // A literal address is connected to without a lookup: checked here.
      const refused = list.refuseAddress(url, host);
      if (refused) throw new WebhookRefused(refused);
    }
    const lookup: LookupFunction = (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true } as LookupAllOptions, (error, found) => {
        if (error) return callback(error, '', 0);
        const addresses = found as LookupAddress[];
        // Every address it resolves to must pass: the socket may try any of them.
        const refused = addresses
          .map((a) => list.refuseAddress(url, a.address))
          .find((r) => r !== undefined);
        if (refused || addresses.length === 0)
          return callback(new WebhookRefused(refused ?? `${hostname} did not resolve`), '', 0);
        if ((options as { all?: boolean }).all)
          return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      });
    };
    return send(url, init ?? {}, lookup);
  };
  return guarded as typeof fetch;
}

/** One request over node:http(s), with the checking lookup; the answer as a fetch Response. */
function send(url: URL, init: RequestInit, lookup: LookupFunction): Promise<Response> {
  const headers = new Headers(init.headers);
  const body = typeof init.body === 'string' ? init.body : undefined;
  if (init.body != null && body === undefined)
    return Promise.reject(new Error('a webhook body is a string'));
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Response>((resolve, reject) => {
    const req = request(
      url,
      {
        method: init.method ?? 'GET',
        headers: {
          ...Object.fromEntries(headers.entries()),
          ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
        },
        lookup,
        // No socket shared with another request: each one is looked up and checked again.
        agent: false,
        ...(init.signal ? { signal: init.signal } : {}),
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          // The answer is not read by anyone: a little of it is enough.
          size += c.length;
          if (size <= 64 * 1024) chunks.push(c);
        });
        res.on('error', reject);
        res.on('end', () => {
          const status = res.statusCode ?? 502;
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            if (typeof v === 'string') out.set(k, v);
          resolve(
            new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), {
              status: status >= 200 && status <= 599 ? status : 502,
              headers: out,
            }),
          );
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
