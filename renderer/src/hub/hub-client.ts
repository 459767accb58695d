import {
  HUB_PAGE_HEADER,
  hubWebMethods,
  type HubWebMethod,
  type HubWebParams,
  type HubWebResult,
} from '../../../shared/protocol/hub-web-methods';
import { HubLive } from './hub-live';

/** A refusal or failure of the hub, with its HTTP status (401: signed out, 403: not allowed). */
export class HubCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface HubClient {
  call<K extends HubWebMethod>(method: K, params: HubWebParams<K>): Promise<HubWebResult<K>>;
  signOut(): Promise<void>;
  /** The hub's live update stream for this page. */
  readonly live: HubLive;
}

/**
 * The team dashboard's calls to the hub: `POST web/api/<method>` with the session cookie and
 * the session's CSRF token (from `me`), each result checked against the shared schema.
 */
export function createHubClient(baseUrl: string, csrf: string): HubClient {
  async function post(path: string, body: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(new URL(path, baseUrl), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Gatehouse-Csrf': csrf },
        body: JSON.stringify(body ?? {}),
        credentials: 'same-origin',
      });
    } catch (error) {
      throw new HubCallError(0, `the hub is not reachable: ${String(error)}`);
    }
    const parsed = (await response.json().catch(() => ({}))) as {
      error?: string;
      result?: unknown;
    };
    if (!response.ok)
      throw new HubCallError(response.status, parsed.error ?? `HTTP ${response.status}`);
    return parsed.result;
  }
  return {
    live: new HubLive(baseUrl),
    async call(method, params) {
      const result = await post(`web/api/${method}`, params);
      return hubWebMethods[method].result.parse(result) as HubWebResult<typeof method>;
    },
    async signOut() {
      this.live.close();
      await post('web/signout', {});
    },
  };
}

/** Who is signed in on this hub page, or why nobody is: `me` needs no CSRF token. */
export async function hubWhoAmI(
  baseUrl: string,
): Promise<
  { kind: 'signed-in'; me: HubWebResult<'me'> } | { kind: 'signed-out' } | { kind: 'not-a-hub' }
> {
  try {
    // The hub marks its pages; the daemon's dashboard answers this as any page, without it.
    const page = await fetch(new URL('./', baseUrl), { method: 'HEAD', credentials: 'omit' });
    if (page.headers.get(HUB_PAGE_HEADER) !== '1') return { kind: 'not-a-hub' };
    const response = await fetch(new URL('web/api/me', baseUrl), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
      credentials: 'same-origin',
    });
    if (response.status === 401) return { kind: 'signed-out' };
    if (!response.ok) return { kind: 'not-a-hub' };
    const body = (await response.json()) as { result?: unknown };
    return { kind: 'signed-in', me: hubWebMethods.me.result.parse(body.result) };
  } catch {
    return { kind: 'not-a-hub' };
  }
}

/** Spends a sign-in link's token for this browser's session cookie; the error when refused. */
export async function hubSignIn(baseUrl: string, token: string): Promise<string | undefined> {
  try {
    const response = await fetch(new URL('web/session', baseUrl), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
      credentials: 'same-origin',
    });
    if (response.ok) return undefined;
    const body = (await response.json().catch(() => ({}))) as { error?: string };
    return body.error ?? `HTTP ${response.status}`;
  } catch (error) {
    return `the hub is not reachable: ${String(error)}`;
  }
}
