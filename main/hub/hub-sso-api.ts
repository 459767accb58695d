import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import type { Clock } from '../../shared/clock';
import type { PersonRole } from '../../shared/hub-protocol';
import { OidcClients } from './hub-oidc-client';
import { oidcRedirectUrl } from './hub-oidc-routes';
import { OidcInviteInput, OidcSettingsInput } from './hub-oidc-settings';
import type { HubRoute } from './hub-person-api';
import { HubRefusal } from './hub-service';
import { appendAudit } from './store/audit-repo';
import {
  anyIdentity,
  clearOidcConfig,
  isInvited,
  readOidcConfig,
  saveInvite,
  writeOidcConfig,
  type StoredOidcConfig,
} from './store/oidc-repo';
import { addPerson, personByName } from './store/people-repo';
import type { SqlDatabase } from './store/sql';

/**
 * The hub admin's single sign-on settings (`gatehouse hub sso set|show|off|invite`, with the
 * hub's admin token). The client secret goes in and is never answered back: `show` says only
 * whether one is set. `set` checks the issuer's discovery document before storing anything.
 */
export function ssoApiRoutes(d: {
  db: SqlDatabase;
  clock: Clock;
  publicUrl: () => string;
  admin: (req: IncomingMessage) => Promise<void>;
}): Record<string, HubRoute> {
  const shown = (s: StoredOidcConfig | undefined) =>
    s
      ? {
          enabled: true,
          providerName: s.providerName,
          issuer: s.issuer,
          clientId: s.clientId,
          clientSecretSet: s.clientSecret.length > 0,
          groupsClaim: s.groupsClaim,
          scopes: s.scopes,
          newPeople: s.newPeople,
          ...(s.adminGroup ? { adminGroup: s.adminGroup } : {}),
          redirectUrl: oidcRedirectUrl(d.publicUrl()),
          updatedAt: s.updatedAt,
        }
      : { enabled: false, redirectUrl: oidcRedirectUrl(d.publicUrl()) };

  return {
    // For the sign-in page's button, before anyone signs in: whether it is on, and its name.
    'GET /api/sso': async () => {
      const s = await readOidcConfig(d.db);
      return s ? { enabled: true, provider: s.providerName } : { enabled: false };
    },
    'GET /api/admin/sso': async (req) => {
      await d.admin(req);
      return shown(await readOidcConfig(d.db));
    },
    'POST /api/admin/sso': async (req, body) => {
      await d.admin(req);
      return shown(
        await applyOidcSettings(d.db, d.clock, parsedOrRefused(OidcSettingsInput, body)),
      );
    },
    'POST /api/admin/sso/off': async (req) => {
      await d.admin(req);
      const now = d.clock.now();
      const was = await d.db.transaction(async (tx) => {
        const cleared = await clearOidcConfig(tx);
        if (cleared) await appendAudit(tx, now, { type: 'sso.off', actor: 'admin' });
        return cleared;
      });
      return { enabled: false, was };
    },
    'POST /api/admin/sso/invite': async (req, body) => {
      await d.admin(req);
      const p = parsedOrRefused(OidcInviteInput, body);
      const email = p.email.toLowerCase();
      const now = d.clock.now();
      await d.db.transaction(async (tx) => {
        if (await personByName(tx, p.name))
          throw new HubRefusal(409, `a person named ${p.name} exists`);
        if (await isInvited(tx, email)) throw new HubRefusal(409, `${email} is invited already`);
        const personId = randomUUID();
        await addPerson(tx, { personId, name: p.name, role: p.role, now });
        await saveInvite(tx, { email, personId, now });
        await appendAudit(tx, now, {
          type: 'person.added',
          actor: 'admin',
          data: { name: p.name, role: p.role, credential: 'sso-invite' },
        });
      });
      return { name: p.name, role: p.role, email };
    },
  };
}

/**
 * Checks the issuer's discovery document, then stores the settings (keeping the stored secret
 * when none is given for the same client) with their audit entry. From `sso set` and from
 * `gatehouse hub --sso-config FILE` at start.
 */
export async function applyOidcSettings(
  db: SqlDatabase,
  clock: Clock,
  input: OidcSettingsInput,
): Promise<StoredOidcConfig> {
  const before = await readOidcConfig(db);
  const clientSecret =
    input.clientSecret ??
    (before && before.clientId === input.clientId && before.issuer === input.issuer
      ? before.clientSecret
      : undefined);
  if (!clientSecret) throw new HubRefusal(400, 'the client secret is required');
  const now = clock.now();
  const { clientSecret: _given, adminGroup, ...rest } = input;
  const next: StoredOidcConfig = {
    ...rest,
    clientSecret,
    ...(adminGroup ? { adminGroup } : {}),
    updatedAt: Math.max(now, (before?.updatedAt ?? 0) + 1),
  };
  try {
    await new OidcClients().configuration(next);
  } catch (error) {
    throw new HubRefusal(
      400,
      `the issuer ${input.issuer} did not answer as an OpenID provider: ${(error as Error).message}`,
    );
  }
  await db.transaction(async (tx) => {
    await writeOidcConfig(tx, next);
    await appendAudit(tx, now, {
      type: 'sso.configured',
      actor: 'admin',
      data: {
        issuer: next.issuer,
        clientId: next.clientId,
        newPeople: next.newPeople,
        adminGroup: next.adminGroup ?? null,
      },
    });
  });
  return next;
}

/** The input, or a refusal naming the first field that is wrong (the CLI prints it as is). */
export function parsedOrRefused<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new HubRefusal(400, `${issue?.path.join('.') || 'input'}: ${issue?.message ?? 'invalid'}`);
}

/**
 * Once single sign-on is on, sign-in links are for bootstrap only: a link for an admin while
 * nobody has signed in through the provider yet, or when the hub's admin says `--bootstrap`.
 * Anyone else signs in with the provider. Throws the refusal the CLI prints.
 */
export async function checkSignInLinkAllowed(
  db: SqlDatabase,
  o: { role: PersonRole; bootstrap: boolean } | { person: string; bootstrap: boolean },
): Promise<void> {
  const s = await readOidcConfig(db);
  if (!s) return;
  const role = 'role' in o ? o.role : (await personByName(db, o.person))?.role;
  if (role !== 'admin')
    throw new HubRefusal(
      409,
      `single sign-on is on: people sign in with ${s.providerName} (invite them with gatehouse hub sso invite); sign-in links are only for bootstrapping an admin`,
    );
  if (!o.bootstrap && (await anyIdentity(db)))
    throw new HubRefusal(
      409,
      `single sign-on is on and people already sign in with ${s.providerName}: sign-in links are for bootstrap only (give --bootstrap to make one for an admin anyway)`,
    );
}
