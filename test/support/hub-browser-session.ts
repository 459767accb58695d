import type { TestHub } from './hub';

/** What a call of the team dashboard's API answered. */
export interface WebReply {
  status: number;
  body: Record<string, unknown>;
  setCookie: string | null;
}

/**
 * A browser's session on a hub, spoken over plain HTTP the way the team dashboard's page
 * speaks it: same-origin headers, the session cookie, the CSRF token `me` hands out. Tests
 * change one thing at a time (no cookie, another origin, no CSRF token) to see it refused.
 */
export class HubBrowserSession {
  cookie = '';
  csrf = '';

  constructor(readonly hub: TestHub) {}

  get origin(): string {
    return new URL(this.hub.url).origin;
  }

  /** A POST to `path` as the page sends it; `o` overrides what a test wants to change. */
  async post(
    path: string,
    body: unknown = {},
    o: { headers?: Record<string, string>; cookie?: string; csrf?: string | null } = {},
  ): Promise<WebReply> {
    const csrf = o.csrf === undefined ? this.csrf : o.csrf;
    const cookie = o.cookie ?? this.cookie;
    const res = await fetch(new URL(path, this.hub.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: this.origin,
        'sec-fetch-site': 'same-origin',
        ...(cookie ? { cookie } : {}),
        ...(csrf ? { 'x-gatehouse-csrf': csrf } : {}),
        ...o.headers,
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      setCookie: res.headers.get('set-cookie'),
    };
  }

  /** Spends the sign-in link's token; keeps the cookie and the CSRF token on success. */
  async signIn(link: string, headers: Record<string, string> = {}): Promise<WebReply> {
    const token = new URLSearchParams(new URL(link).hash.slice(1)).get('signin') ?? '';
    const r = await this.post('/web/session', { token }, { headers, cookie: '', csrf: null });
    const value = /^(gatehouse_hub_session=[^;]+)/.exec(r.setCookie ?? '')?.[1];
    if (r.status === 200 && value) {
      this.cookie = value;
      const me = await this.call('me');
      this.csrf = (me.body.result as { csrf: string }).csrf;
    }
    return r;
  }

  /** A dashboard method. */
  call(method: string, params: unknown = {}, o: Parameters<HubBrowserSession['post']>[2] = {}) {
    return this.post(`/web/api/${method}`, params, o);
  }

  /** The same session on another replica of the hub (the cookie and CSRF token carried over). */
  on(hub: TestHub): HubBrowserSession {
    const other = new HubBrowserSession(hub);
    other.cookie = this.cookie;
    other.csrf = this.csrf;
    return other;
  }
}
