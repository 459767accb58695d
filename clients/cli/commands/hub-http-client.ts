import { existsSync, readFileSync } from 'node:fs';
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

/** Calls the hub's HTTP API with a bearer credential; answers the parsed JSON or throws. */
export async function callHub(
  url: string,
  method: 'GET' | 'POST',
  path: string,
  o: { token?: string; body?: unknown } = {},
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(new URL(path, url), {
      method,
      headers: {
        ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
        ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new HubCallError(
      0,
      `cannot reach the hub at ${url}: ${cause?.code ?? cause?.message ?? String(error)}`,
    );
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HubCallError(
      res.status,
      `the hub at ${url} answered ${res.status} with something that is not JSON`,
    );
  }
  if (!res.ok) {
    const message = (body as { error?: unknown }).error;
    throw new HubCallError(
      res.status,
      typeof message === 'string' ? message : `the hub answered ${res.status}`,
    );
  }
  return body;
}

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

/**
 * The hub running on this host (its address file) and its admin token: the hub's own admin
 * commands run where the hub runs, with its GATEHOUSE_HOME, as the daemon's CLI does.
 */
export function localHubAdmin(home: string, urlOption?: string): { url: string; token: string } {
  const files = hubFiles(home);
  if (!existsSync(files.adminToken))
    throw new UsageError(
      `no hub in ${files.dir}: run the hub admin commands on the hub's host, with its GATEHOUSE_HOME`,
    );
  const token = readFileSync(files.adminToken, 'utf8').trim();
  if (urlOption) return { url: hubUrl(urlOption), token };
  if (!existsSync(files.address))
    throw new UsageError(`the hub in ${files.dir} is not running (no ${files.address})`);
  const { url } = z
    .object({ url: z.string() })
    .parse(JSON.parse(readFileSync(files.address, 'utf8')));
  return { url, token };
}
