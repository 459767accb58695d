import { z } from 'zod';
import { GroupName, PersonName, PersonRole } from '../../shared/hub-protocol';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * An issuer the hub may trust: HTTPS, or plain HTTP on this host only (a provider run beside
 * the hub, or a test's), since its discovery document and keys decide who signs in.
 */
export const IssuerUrl = z
  .string()
  .url()
  .max(2048)
  .refine((u) => {
    const url = new URL(u);
    return (
      url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))
    );
  }, 'the issuer must be https:// (plain http only on this host)');

/** A claim's name (`groups`, `roles`, `https://example.com/groups` …). */
const ClaimName = z.string().regex(/^[\w.:/-]{1,200}$/, 'not a claim name');
const Scopes = z
  .string()
  .regex(/^[\w.:/-]+( [\w.:/-]+)*$/, 'scopes are words separated by single spaces')
  .max(1000)
  .refine((s) => s.split(' ').includes('openid'), 'the scopes must include openid');

/** What `gatehouse hub sso set` sends. The secret may be left out to keep the one stored. */
export const OidcSettingsInput = z.object({
  providerName: z.string().min(1).max(60).default('single sign-on'),
  issuer: IssuerUrl,
  clientId: z.string().min(1).max(512),
  clientSecret: z.string().min(1).max(4096).optional(),
  groupsClaim: ClaimName.default('groups'),
  scopes: Scopes.default('openid email profile'),
  /**
   * Who a first sign-in may be. `invite` (the default): only people an admin made with
   * `gatehouse hub sso invite`, so an account the provider knows is not a hub person by that
   * alone (many providers sign in a whole company, or anyone with a Google account).
   */
  newPeople: z.enum(['invite', 'viewer', 'approver']).default('invite'),
  /** Members of this provider group are the hub's admins while they are in it. */
  adminGroup: GroupName.optional(),
});
export type OidcSettingsInput = z.infer<typeof OidcSettingsInput>;

/** What `gatehouse hub sso invite` sends: a person made now, taken by the first sign-in with this verified email. */
export const OidcInviteInput = z.object({
  email: z.string().email().max(320),
  name: PersonName,
  role: PersonRole,
});
