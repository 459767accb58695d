import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import { z } from 'zod';
import { hubFiles } from '../../../shared/node/hub-files';
import { UsageError } from '../run-admin';

/** A refusal or failure the hub answered with; `status` is its HTTP status. */
export class HubCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** What a hub call sends: a bearer credential, a JSON body, a CA to trust (a self-signed hub). */
export interface HubCallOptions {
  token?: string;
  body?: unknown;
  /** PEM certificates trusted for this hub besides the system's (and NODE_EXTRA_CA_CERTS). */
  ca?: string;
}

/** Calls the hub's HTTP API with a bearer credential; answers the parsed JSON or throws. */
export async function callHub(
  url: string,
  method: 'GET' | 'POST',
  path: string,
  o: HubCallOptions = {},
): Promise<unknown> {
  const target = new URL(path, url);
  const payload = o.body !== undefined ? JSON.stringify(o.body) : undefined;
  let status: number;
  let text: string;
  try {
    ({ status, text } = await send(target, method, payload, o));
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new HubCallError(0, `cannot reach the hub at ${url}: ${e.code ?? e.message}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HubCallError(
      status,
      `the hub at ${url} answered ${status} with something that is not JSON`,
    );
  }
  if (status < 200 || status > 299) {
    const message = (body as { error?: unknown }).error;
    throw new HubCallError(
      status,
      typeof message === 'string' ? message : `the hub answered ${status}`,
    );
  }
  return body;
}

/** One HTTP(S) exchange; TLS is verified (against `ca` too when given). */
function send(
  target: URL,
  method: string,
  payload: string | undefined,
  o: HubCallOptions,
): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = {
    ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
    ...(payload !== undefined
      ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }
      : {}),
  };
  return new Promise((resolve, reject) => {
    const onResponse = (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    };
    const req =
      target.protocol === 'https:'
        ? httpsRequest(
            target,
            {
              method,
              headers,
              timeout: CALL_TIMEOUT_MS,
              ...(o.ca ? { ca: [...rootCertificates, o.ca] } : {}),
            },
            onResponse,
          )
        : httpRequest(target, { method, headers, timeout: CALL_TIMEOUT_MS }, onResponse);
    req.on('timeout', () =>
      req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** How long one call to the hub may take. */
const CALL_TIMEOUT_MS = 30_000;

/** A hub URL as given: http(s) only. */
export function hubUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`not a hub URL: ${text} (expected http://host:port or https://host)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`a hub URL starts with http:// or https://, not ${url.protocol}//`);
  return url.origin;
}

/** The hub's admin on its host: where it listens, its admin token, the certificate it serves. */
export interface LocalHubAdmin {
  url: string;
  token: string;
  /** The hub's own certificate (PEM) when it serves TLS: its admin commands trust it. */
  ca?: string;
}

const HubAddress = z.object({ url: z.string(), ca: z.string().optional() });

/**
 * The hub running on this host (its address file) and its admin token: the hub's own admin
 * commands run where the hub runs, with its GATEHOUSE_HOME, as the daemon's CLI does.
 */
export function localHubAdmin(home: string, urlOption?: string): LocalHubAdmin {
  const files = hubFiles(home);
  if (!existsSync(files.adminToken))
    throw new UsageError(
      `no hub admin token in ${files.dir}: run the hub admin commands on the hub's host, with its GATEHOUSE_HOME (or copy hub/admin.token from the host whose hub made it)`,
    );
  const token = readFileSync(files.adminToken, 'utf8').trim();
  const address = existsSync(files.address)
    ? HubAddress.parse(JSON.parse(readFileSync(files.address, 'utf8')))
    : undefined;
  const ca = address?.ca ? { ca: address.ca } : {};
  if (urlOption) return { url: hubUrl(urlOption), token, ...ca };
  if (!address)
    throw new UsageError(`the hub in ${files.dir} is not running (no ${files.address})`);
  return { url: address.url, token, ...ca };
}

/** A call of the hub's admin API with the local admin token (and the hub's own certificate). */
export const callHubAdmin = (
  admin: LocalHubAdmin,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<unknown> =>
  callHub(admin.url, method, path, {
    token: admin.token,
    ...(admin.ca ? { ca: admin.ca } : {}),
    ...(body !== undefined ? { body } : {}),
  });
