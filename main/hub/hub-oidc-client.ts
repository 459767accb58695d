import * as oidc from 'openid-client';
import type { StoredOidcConfig } from './store/oidc-repo';

/** How long a sign-in may take between leaving for the provider and coming back. */
export const OIDC_LOGIN_TTL_MS = 10 * 60_000;

/** What the provider vouched for, read from a verified ID token (and its userinfo). */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
  /** What the provider calls the person, to name a new hub person after. */
  preferredName?: string;
  /** The groups claim's values (only those that can be hub group names). */
  groups: string[];
}

const GROUP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
const MAX_GROUPS = 200;

/**
 * The hub's side of OpenID Connect, through openid-client: discovery (the issuer in the
 * document must be the configured one), the authorization request (code flow, PKCE S256,
 * state, nonce) and the callback, where openid-client checks the state, the `iss` parameter
 * when the provider sends it (mix-up), the code exchange with the client's secret and the
 * verifier, and the ID token's signature, issuer, audience, nonce and expiry.
 * The provider's configuration is kept per settings version, so each replica discovers once.
 */
export class OidcClients {
  private cached: { key: string; config: Promise<oidc.Configuration> } | undefined;

  configuration(s: StoredOidcConfig): Promise<oidc.Configuration> {
    const key = `${s.issuer}\n${s.clientId}\n${s.updatedAt}`;
    if (this.cached?.key !== key) {
      const config = discover(s);
      this.cached = { key, config };
      // A provider that was down is asked again at the next sign-in.
      config.catch(() => {
        if (this.cached?.key === key) this.cached = undefined;
      });
    }
    return this.cached.config;
  }

  async authorizationUrl(
    s: StoredOidcConfig,
    redirectUri: string,
  ): Promise<{ url: URL; state: string; nonce: string; codeVerifier: string }> {
    const config = await this.configuration(s);
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: s.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url, state, nonce, codeVerifier };
  }

  /** Completes the sign-in the callback URL answers; throws when anything does not check. */
  async finish(
    s: StoredOidcConfig,
    callbackUrl: URL,
    pending: { state: string; nonce: string; codeVerifier: string },
  ): Promise<OidcIdentity> {
    const config = await this.configuration(s);
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error('the provider sent no ID token');
    let claims: Record<string, unknown> = { ...idClaims };
    // Many providers put profile claims (and groups) in userinfo only; its `sub` must match.
    if (config.serverMetadata().userinfo_endpoint)
      claims = {
        ...claims,
        ...(await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub)),
      };
    return identityOf(s, idClaims.iss, idClaims.sub, claims);
  }
}

function discover(s: StoredOidcConfig): Promise<oidc.Configuration> {
  const insecure = new URL(s.issuer).protocol === 'http:';
  return oidc.discovery(
    new URL(s.issuer),
    s.clientId,
    undefined,
    oidc.ClientSecretBasic(s.clientSecret),
    { timeout: 10, ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}) },
  );
}

function identityOf(
  s: StoredOidcConfig,
  issuer: string,
  subject: string,
  claims: Record<string, unknown>,
): OidcIdentity {
  const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);
  const raw = claims[s.groupsClaim];
  const listed = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  const groups = [
    ...new Set(listed.filter((g): g is string => typeof g === 'string' && GROUP_NAME.test(g))),
  ].slice(0, MAX_GROUPS);
  const email = text(claims.email)?.toLowerCase();
  const preferredName =
    text(claims.preferred_username) ?? email?.split('@')[0] ?? text(claims.name);
  return {
    issuer,
    subject,
    ...(email ? { email } : {}),
    emailVerified: claims.email_verified === true,
    ...(preferredName ? { preferredName } : {}),
    groups,
  };
}
