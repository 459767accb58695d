import { randomUUID } from 'node:crypto';
import type { PersonRole } from '../../shared/hub-protocol';
import type { OidcIdentity } from './hub-oidc-client';
import { replaceIdentityGroups } from './store/groups-repo';
import {
  linkIdentity,
  personByIdentity,
  setPersonRole,
  spendInvite,
  takenNames,
  touchIdentity,
  type StoredOidcConfig,
} from './store/oidc-repo';
import { addPerson, type Person } from './store/people-repo';
import type { Sql } from './store/sql';

export type OidcPersonOutcome =
  | { ok: true; person: Person; created: boolean; groups: string[] }
  | { ok: false; reason: 'not-invited' };

/**
 * The hub person an account of the provider signs in as, in the caller's transaction. An
 * account is linked by (issuer, sub) at its first sign-in and found that way ever after, never
 * by a name or an email the provider may let people change. A first sign-in takes an
 * invitation for its email when the provider says the email is verified; otherwise it makes a
 * new person only when the settings allow it. At every sign-in the person's provider groups
 * become exactly what the groups claim says, and with an admin group set, the role follows it.
 */
export async function oidcPerson(
  tx: Sql,
  s: StoredOidcConfig,
  id: OidcIdentity,
  now: number,
): Promise<OidcPersonOutcome> {
  let person: Person;
  let baseRole: PersonRole;
  let created = false;
  const linked = await personByIdentity(tx, id.issuer, id.subject);
  if (linked) {
    ({ baseRole, ...person } = linked);
    await touchIdentity(tx, id.issuer, id.subject, now);
  } else {
    const invited = id.email && id.emailVerified ? await spendInvite(tx, id.email) : undefined;
    if (invited) person = invited;
    else if (s.newPeople === 'invite') return { ok: false, reason: 'not-invited' };
    else {
      person = { personId: randomUUID(), name: await freeName(tx, id), role: s.newPeople };
      await addPerson(tx, { ...person, now });
      created = true;
    }
    baseRole = person.role;
    await linkIdentity(tx, { ...id, personId: person.personId, baseRole, now });
  }
  if (s.adminGroup) {
    const role = id.groups.includes(s.adminGroup) ? 'admin' : baseRole;
    if (role !== person.role) {
      await setPersonRole(tx, person.personId, role);
      person = { ...person, role };
    }
  }
  await replaceIdentityGroups(tx, person.personId, id.groups, now);
  return { ok: true, person, created, groups: id.groups };
}

/** A hub name from what the provider calls the person, made unique with a number. */
async function freeName(tx: Sql, id: OidcIdentity): Promise<string> {
  const cleaned = (id.preferredName ?? '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 56);
  const base = cleaned || `sso-${id.subject.replace(/[^A-Za-z0-9]/g, '').slice(0, 12) || 'person'}`;
  const candidates = [base, ...Array.from({ length: 50 }, (_, i) => `${base}-${i + 2}`)];
  const taken = await takenNames(tx, candidates);
  return (
    candidates.find((c) => !taken.has(c)) ?? `${base.slice(0, 40)}-${randomUUID().slice(0, 8)}`
  );
}
