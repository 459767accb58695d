import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import Provider, { type Account, type KoaContextLike } from 'oidc-provider';
import { freePort } from './free-port';

/** An account of the test provider: what its ID token and userinfo say. */
export interface TestOidcAccount {
  sub: string;
  email: string;
  emailVerified: boolean;
  preferredUsername: string;
  /** The `groups` claim; absent when undefined. */
  groups?: string[];
}

export interface TestOidcClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

/**
 * A real OpenID provider (oidc-provider 8) on 127.0.0.1 and a free port: authorization code
 * with PKCE required, the `iss` parameter in its answers, a `groups` scope that releases the
 * `groups` claim. Its login page signs in, without a form, the account a test chose with
 * `signInAs` (the test stands for the person typing a password), and consent is implied for
 * the registered clients, so a browser or a plain HTTP client goes straight through.
 * Accounts can be changed between sign-ins (a person leaves a group).
 */
export class TestOidcProvider {
  readonly accounts = new Map<string, TestOidcAccount>();
  private next: string | undefined;
  private server: Server | undefined;

  private constructor(readonly issuer: string) {}

  static async start(o: {
    clients: TestOidcClient[];
    accounts: TestOidcAccount[];
  }): Promise<TestOidcProvider> {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    const self = new TestOidcProvider(issuer);
    for (const a of o.accounts) self.accounts.set(a.sub, a);
    const provider = new Provider(issuer, {
      clients: o.clients.map((c) => ({
        client_id: c.clientId,
        client_secret: c.clientSecret,
        redirect_uris: c.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      })),
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['preferred_username', 'name'],
        groups: ['groups'],
      },
      scopes: ['openid', 'email', 'profile', 'groups'],
      pkce: { required: () => true, methods: ['S256'] },
      features: { devInteractions: { enabled: false } },
      cookies: { keys: [randomBytes(16).toString('hex')] },
      // Its own signing key and lifetimes, as a real deployment has (and no quick-start warnings).
      jwks: {
        keys: [
          {
            ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
              format: 'jwk',
            }),
            kid: 'test-key',
            use: 'sig',
            alg: 'RS256',
          },
        ],
      },
      ttl: {
        AccessToken: 600,
        AuthorizationCode: 60,
        Grant: 3600,
        IdToken: 600,
        Interaction: 600,
        Session: 3600,
      },
      interactions: { url: (_ctx: unknown, i: { uid: string }) => `/interaction/${i.uid}` },
      findAccount: (_ctx: unknown, id: string): Account | undefined => {
        const account = self.accounts.get(id);
        if (!account) return undefined;
        return {
          accountId: id,
          claims: async () => ({
            sub: account.sub,
            email: account.email,
            email_verified: account.emailVerified,
            preferred_username: account.preferredUsername,
            name: account.preferredUsername,
            ...(account.groups ? { groups: account.groups } : {}),
          }),
        };
      },
      // First-party clients: the scopes and claims asked for are granted without a consent page.
      loadExistingGrant: async (ctx: KoaContextLike) => {
        const accountId = ctx.oidc.session?.accountId;
        const clientId = ctx.oidc.client?.clientId;
        if (!accountId || !clientId) return undefined;
        const grant = new provider.Grant({ accountId, clientId });
        grant.addOIDCScope(String(ctx.oidc.params?.scope ?? 'openid'));
        grant.addOIDCClaims([
          'sub',
          'email',
          'email_verified',
          'preferred_username',
          'name',
          'groups',
        ]);
        await grant.save();
        return grant;
      },
    });
    const callback = provider.callback();
    const server = createServer((req, res) => {
      if (!req.url?.startsWith('/interaction/')) return callback(req, res);
      void (async () => {
        const details = await provider.interactionDetails(req, res);
        const accountId = self.next;
        if (details.prompt.name !== 'login' || !accountId) {
          res.writeHead(400, { 'content-type': 'text/plain' });
          res.end(`the test provider cannot answer the ${details.prompt.name} prompt`);
          return;
        }
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId } },
          { mergeWithLastSubmission: false },
        );
      })().catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    self.server = server;
    return self;
  }

  /** The account the next login prompt signs in (by its `sub`). */
  signInAs(sub: string): void {
    this.next = sub;
  }

  stop(): Promise<void> {
    const server = this.server;
    return new Promise((resolve) => {
      if (!server) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  }
}

/**
 * A browser over plain HTTP: it follows redirects by hand and keeps each origin's cookies
 * (names and values; paths and expiry are the servers' business, a cleared cookie is dropped).
 */
export class HttpBrowser {
  readonly jar = new Map<string, Map<string, string>>();

  cookies(origin: string): Map<string, string> {
    let c = this.jar.get(origin);
    if (!c) this.jar.set(origin, (c = new Map()));
    return c;
  }

  /** One GET with this browser's cookies; the cookies it sets are kept. */
  async get(url: string): Promise<Response> {
    const target = new URL(url);
    const jar = this.cookies(target.origin);
    const res = await fetch(target, {
      redirect: 'manual',
      headers: jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {},
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (!value || /max-age=0\b/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line))
        jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }

  /**
   * Follows redirects from `url` until one leads to a URL `stopAt` accepts (not fetched) or a
   * response that is not a redirect; answers the last URL and its response, if fetched.
   */
  async follow(
    url: string,
    stopAt: (u: URL) => boolean = () => false,
  ): Promise<{ url: string; res?: Response }> {
    let current = url;
    for (let hop = 0; hop < 20; hop++) {
      if (stopAt(new URL(current))) return { url: current };
      const res = await this.get(current);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status > 399 || !location) return { url: current, res };
      current = new URL(location, current).toString();
    }
    throw new Error(`too many redirects from ${url}`);
  }
}
