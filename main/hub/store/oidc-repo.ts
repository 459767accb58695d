import type { PersonRole } from '../../../shared/hub-protocol';
import type { Person } from './people-repo';
import type { Sql } from './sql';

/** Who a first sign-in through the provider may be (see 008_oidc.sql). */
export type NewPeoplePolicy = 'invite' | 'viewer' | 'approver';

/** The hub's single sign-on settings as stored, the client secret included. */
export interface StoredOidcConfig {
  providerName: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  groupsClaim: string;
  /** The scopes asked for, space-separated (`openid` always among them). */
  scopes: string;
  newPeople: NewPeoplePolicy;
  adminGroup?: string;
  updatedAt: number;
}

interface ConfigRow {
  provider_name: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  groups_claim: string;
  scopes: string;
  new_people: NewPeoplePolicy;
  admin_group: string | null;
  updated_at: string | number;
}

export async function readOidcConfig(sql: Sql): Promise<StoredOidcConfig | undefined> {
  const [r] = await sql.query<ConfigRow>('SELECT * FROM hub_oidc_config WHERE id = 1');
  if (!r) return undefined;
  return {
    providerName: r.provider_name,
    issuer: r.issuer,
    clientId: r.client_id,
    clientSecret: r.client_secret,
    groupsClaim: r.groups_claim,
    scopes: r.scopes,
    newPeople: r.new_people,
    ...(r.admin_group !== null ? { adminGroup: r.admin_group } : {}),
    updatedAt: Number(r.updated_at),
  };
}

export async function writeOidcConfig(sql: Sql, c: StoredOidcConfig): Promise<void> {
  await sql.query(
    `INSERT INTO hub_oidc_config (id, provider_name, issuer, client_id, client_secret, groups_claim,
       scopes, new_people, admin_group, updated_at) VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (id) DO UPDATE SET provider_name = EXCLUDED.provider_name,
       issuer = EXCLUDED.issuer, client_id = EXCLUDED.client_id,
       client_secret = EXCLUDED.client_secret, groups_claim = EXCLUDED.groups_claim, scopes = EXCLUDED.scopes,
       new_people = EXCLUDED.new_people, admin_group = EXCLUDED.admin_group,
       updated_at = EXCLUDED.updated_at`,
    [
      c.providerName,
      c.issuer,
      c.clientId,
      c.clientSecret,
      c.groupsClaim,
      c.scopes,
      c.newPeople,
      c.adminGroup ?? null,
      c.updatedAt,
    ],
  );
}

/** Turns single sign-on off: the settings and every sign-in under way are dropped. */
export async function clearOidcConfig(sql: Sql): Promise<boolean> {
  const rows = await sql.query('DELETE FROM hub_oidc_config WHERE id = 1 RETURNING id');
  await sql.query('DELETE FROM oidc_logins');
  return rows.length > 0;
}

export interface PendingLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export async function savePendingLogin(
  sql: Sql,
  p: PendingLogin & { bindingHash: string; now: number; expiresAt: number },
): Promise<void> {
  // Old rows nobody came back for go with each new one.
  await sql.query('DELETE FROM oidc_logins WHERE expires_at <= $1', [p.now]);
  await sql.query(
    `INSERT INTO oidc_logins (binding_hash, state, nonce, code_verifier, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [p.bindingHash, p.state, p.nonce, p.codeVerifier, p.now, p.expiresAt],
  );
}

/** How many sign-ins are under way (not expired). */
export async function countPendingLogins(sql: Sql, now: number): Promise<number> {
  const [r] = await sql.query<{ n: string | number }>(
    'SELECT count(*) AS n FROM oidc_logins WHERE expires_at > $1',
    [now],
  );
  return Number(r?.n ?? 0);
}

/** Takes a sign-in under way out (once: a second call finds nothing), if not expired. */
export async function spendPendingLogin(
  sql: Sql,
  bindingHash: string,
  now: number,
): Promise<PendingLogin | undefined> {
  const [r] = await sql.query<{
    state: string;
    nonce: string;
    code_verifier: string;
    expires_at: string | number;
  }>('DELETE FROM oidc_logins WHERE binding_hash = $1 RETURNING *', [bindingHash]);
  if (!r || Number(r.expires_at) <= now) return undefined;
  return { state: r.state, nonce: r.nonce, codeVerifier: r.code_verifier };
}

/** The person an account of the provider is linked to, with their role without the admin group. */
export async function personByIdentity(
  sql: Sql,
  issuer: string,
  subject: string,
): Promise<(Person & { baseRole: PersonRole }) | undefined> {
  const [r] = await sql.query<{
    person_id: string;
    name: string;
    role: PersonRole;
    base_role: PersonRole;
  }>(
    `SELECT p.person_id, p.name, p.role, i.base_role FROM oidc_identities i
     JOIN people p USING (person_id) WHERE i.issuer = $1 AND i.subject = $2`,
    [issuer, subject],
  );
  return r
    ? { personId: r.person_id, name: r.name, role: r.role, baseRole: r.base_role }
    : undefined;
}

export async function linkIdentity(
  sql: Sql,
  l: { issuer: string; subject: string; personId: string; baseRole: PersonRole; now: number },
): Promise<void> {
  await sql.query(
    `INSERT INTO oidc_identities (issuer, subject, person_id, base_role, created_at, last_sign_in_at)
     VALUES ($1, $2, $3, $4, $5, $5)`,
    [l.issuer, l.subject, l.personId, l.baseRole, l.now],
  );
}

export async function touchIdentity(
  sql: Sql,
  issuer: string,
  subject: string,
  now: number,
): Promise<void> {
  await sql.query(
    'UPDATE oidc_identities SET last_sign_in_at = $3 WHERE issuer = $1 AND subject = $2',
    [issuer, subject, now],
  );
}

/** Whether anybody has signed in through single sign-on yet (then sign-in links are bootstrap only). */
export async function anyIdentity(sql: Sql): Promise<boolean> {
  const rows = await sql.query('SELECT 1 FROM oidc_identities LIMIT 1');
  return rows.length > 0;
}

export async function setPersonRole(sql: Sql, personId: string, role: PersonRole): Promise<void> {
  await sql.query('UPDATE people SET role = $2 WHERE person_id = $1', [personId, role]);
}

export async function saveInvite(
  sql: Sql,
  i: { email: string; personId: string; now: number },
): Promise<void> {
  await sql.query('INSERT INTO oidc_invites (email, person_id, created_at) VALUES ($1, $2, $3)', [
    i.email,
    i.personId,
    i.now,
  ]);
}

export async function isInvited(sql: Sql, email: string): Promise<boolean> {
  const rows = await sql.query('SELECT 1 FROM oidc_invites WHERE email = $1', [email]);
  return rows.length > 0;
}

/** Takes the invitation for a verified email (once), answering the person it names. */
export async function spendInvite(sql: Sql, email: string): Promise<Person | undefined> {
  const [r] = await sql.query<{ person_id: string }>(
    'DELETE FROM oidc_invites WHERE email = $1 RETURNING person_id',
    [email],
  );
  if (!r) return undefined;
  const [p] = await sql.query<{ person_id: string; name: string; role: PersonRole }>(
    'SELECT person_id, name, role FROM people WHERE person_id = $1',
    [r.person_id],
  );
  return p ? { personId: p.person_id, name: p.name, role: p.role } : undefined;
}

/** Names already taken on the hub among these (to choose a free one for a new person). */
export async function takenNames(sql: Sql, names: readonly string[]): Promise<Set<string>> {
  const rows = await sql.query<{ name: string }>('SELECT name FROM people WHERE name = ANY($1)', [
    [...names],
  ]);
  return new Set(rows.map((r) => r.name));
}
