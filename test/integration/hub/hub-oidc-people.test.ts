import { describe, expect, it } from 'vitest';
import type { OidcIdentity } from '../../../main/hub/hub-oidc-client';
import { oidcPerson } from '../../../main/hub/hub-oidc-people';
import { groupsOf } from '../../../main/hub/store/groups-repo';
import {
  saveInvite,
  writeOidcConfig,
  type StoredOidcConfig,
} from '../../../main/hub/store/oidc-repo';
import { addPerson, personByName } from '../../../main/hub/store/people-repo';
import type { SqlDatabase } from '../../../main/hub/store/sql';
import { HUB_BACKENDS, hubDatabases } from '../../support/hub-databases';

const T0 = 1_800_000_000_000;
const ISSUER = 'https://idp.example.com';
const dbs = hubDatabases();

const settings = (o: Partial<StoredOidcConfig> = {}): StoredOidcConfig => ({
  providerName: 'IdP',
  issuer: ISSUER,
  clientId: 'hub',
  clientSecret: 'secret',
  groupsClaim: 'groups',
  scopes: 'openid',
  newPeople: 'invite',
  updatedAt: T0,
  ...o,
});
const account = (o: Partial<OidcIdentity> = {}): OidcIdentity => ({
  issuer: ISSUER,
  subject: 'sub-1',
  email: 'ann@example.com',
  emailVerified: true,
  preferredName: 'ann',
  groups: [],
  ...o,
});
const signIn = (db: SqlDatabase, s: StoredOidcConfig, id: OidcIdentity, now = T0) =>
  db.transaction((tx) => oidcPerson(tx, s, id, now));

/**
 * Who an account of the provider signs in as, on both hub databases: linked by (issuer, sub)
 * only, invitations taken by a verified email once, names never matched, the admin group
 * followed both ways, and the provider's groups replaced at each sign-in.
 */
describe.each(HUB_BACKENDS)('single sign-on people on %s', (backend) => {
  it('never takes a person by name; an invitation needs the verified email and is taken once', async () => {
    const db = await dbs.fresh(backend);
    // An admin's `ann` (made with a sign-in link) is not the provider's `ann`.
    await addPerson(db, { personId: 'p-ann', name: 'ann', role: 'admin', now: T0 });
    expect(await signIn(db, settings(), account())).toEqual({ ok: false, reason: 'not-invited' });
    await addPerson(db, { personId: 'p-inv', name: 'ann-sso', role: 'approver', now: T0 });
    await saveInvite(db, { email: 'ann@example.com', personId: 'p-inv', now: T0 });
    // Unverified: the invitation stays.
    expect(await signIn(db, settings(), account({ emailVerified: false }))).toEqual({
      ok: false,
      reason: 'not-invited',
    });
    const taken = await signIn(db, settings(), account());
    expect(taken).toMatchObject({ ok: true, person: { name: 'ann-sso', role: 'approver' } });
    // Another account with the same verified email later finds no invitation.
    expect(await signIn(db, settings(), account({ subject: 'sub-2' }))).toEqual({
      ok: false,
      reason: 'not-invited',
    });
    // The linked account is found by its sub, whatever its email and name become.
    const renamed = await signIn(
      db,
      settings(),
      account({ email: 'other@example.com', preferredName: 'zed' }),
    );
    expect(renamed).toMatchObject({ ok: true, created: false, person: { name: 'ann-sso' } });
    // The same sub at another issuer is another account.
    expect(await signIn(db, settings(), account({ issuer: 'https://evil.example.com' }))).toEqual({
      ok: false,
      reason: 'not-invited',
    });
  }, 90_000); // the first test of a block starts PGlite: slow on a loaded machine

  it('makes new people with a free name and the set role when allowed', async () => {
    const db = await dbs.fresh(backend);
    await addPerson(db, { personId: 'p-ann', name: 'ann', role: 'admin', now: T0 });
    const s = settings({ newPeople: 'viewer' });
    const first = await signIn(db, s, account());
    expect(first).toMatchObject({
      ok: true,
      created: true,
      person: { name: 'ann-2', role: 'viewer' },
    });
    const odd = await signIn(db, s, account({ subject: 's3', preferredName: '../Ann Smith!' }));
    expect(odd).toMatchObject({ ok: true, person: { name: 'Ann-Smith-' } });
    const none = await signIn(db, s, {
      issuer: ISSUER,
      subject: 'x/y',
      emailVerified: false,
      groups: [],
    });
    expect(none).toMatchObject({ ok: true, person: { name: 'sso-xy' } });
    expect((await personByName(db, 'ann'))?.role).toBe('admin');
  });

  it('follows the groups claim and the admin group at every sign-in', async () => {
    const db = await dbs.fresh(backend);
    await writeOidcConfig(db, settings({ newPeople: 'approver', adminGroup: 'hub-admins' }));
    const s = settings({ newPeople: 'approver', adminGroup: 'hub-admins' });
    const admin = await signIn(db, s, account({ groups: ['ops', 'hub-admins'] }));
    expect(admin).toMatchObject({ ok: true, person: { role: 'admin' } });
    const id = admin.ok ? admin.person.personId : '';
    expect(await groupsOf(db, id)).toEqual(['hub-admins', 'ops']);
    const left = await signIn(db, s, account({ groups: ['ops'] }), T0 + 1);
    expect(left).toMatchObject({ ok: true, person: { role: 'approver' } });
    expect(await groupsOf(db, id)).toEqual(['ops']);
    // Without an admin group in the settings, the hub's role is left alone.
    await db.query("UPDATE people SET role = 'viewer' WHERE person_id = $1", [id]);
    const kept = await signIn(db, settings({ newPeople: 'approver' }), account({ groups: [] }));
    expect(kept).toMatchObject({ ok: true, person: { role: 'viewer' } });
    expect(await groupsOf(db, id)).toEqual([]);
  });
});
