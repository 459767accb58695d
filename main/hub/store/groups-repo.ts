import { num, type Sql } from './sql';

/** Where a membership came from: an admin on the hub, or the identity provider's claim. */
export type MembershipSource = 'hub' | 'identity';

export interface GroupMember {
  personId: string;
  name: string;
  sources: MembershipSource[];
}

export interface HubGroup {
  name: string;
  createdAt: number;
  members: GroupMember[];
}

/** Makes the group if it is not there yet; answers whether it was made. */
export async function ensureGroup(sql: Sql, name: string, now: number): Promise<boolean> {
  const rows = await sql.query(
    'INSERT INTO hub_groups (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING name',
    [name, now],
  );
  return rows.length > 0;
}

/** Removes a group and every membership in it; answers whether it existed. */
export async function deleteGroup(sql: Sql, name: string): Promise<boolean> {
  const rows = await sql.query('DELETE FROM hub_groups WHERE name = $1 RETURNING name', [name]);
  return rows.length > 0;
}

/** Puts a person in a group (made if needed) from one source; a repeat changes nothing. */
export async function addMember(
  sql: Sql,
  m: { group: string; personId: string; source: MembershipSource; now: number },
): Promise<void> {
  await ensureGroup(sql, m.group, m.now);
  await sql.query(
    `INSERT INTO group_members (group_name, person_id, source, added_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [m.group, m.personId, m.source, m.now],
  );
}

/** Takes a person out of a group for one source; answers whether they were in it so. */
export async function removeMember(
  sql: Sql,
  m: { group: string; personId: string; source: MembershipSource },
): Promise<boolean> {
  const rows = await sql.query(
    'DELETE FROM group_members WHERE group_name = $1 AND person_id = $2 AND source = $3 RETURNING person_id',
    [m.group, m.personId, m.source],
  );
  return rows.length > 0;
}

/**
 * Sets a person's identity-provider memberships to exactly `groups` (what the provider's
 * claim named at this sign-in); memberships an admin gave on the hub are left alone.
 */
export async function replaceIdentityGroups(
  sql: Sql,
  personId: string,
  groups: readonly string[],
  now: number,
): Promise<void> {
  await sql.query(
    `DELETE FROM group_members WHERE person_id = $1 AND source = 'identity' AND NOT (group_name = ANY($2))`,
    [personId, [...groups]],
  );
  for (const group of groups) await addMember(sql, { group, personId, source: 'identity', now });
}

/** The groups a person is in, from any source, by name. */
export async function groupsOf(sql: Sql, personId: string): Promise<string[]> {
  const rows = await sql.query<{ group_name: string }>(
    'SELECT DISTINCT group_name FROM group_members WHERE person_id = $1 ORDER BY group_name',
    [personId],
  );
  return rows.map((r) => r.group_name);
}

/** Every group with its members (a person once, with each source they are in it by). */
export async function listGroups(sql: Sql): Promise<HubGroup[]> {
  const groups = await sql.query<{ name: string; created_at: string | number }>(
    'SELECT name, created_at FROM hub_groups ORDER BY name',
  );
  const members = await sql.query<{
    group_name: string;
    person_id: string;
    name: string;
    source: MembershipSource;
  }>(
    `SELECT m.group_name, m.person_id, p.name, m.source FROM group_members m
     JOIN people p USING (person_id) ORDER BY m.group_name, p.name, m.source`,
  );
  return groups.map((g) => {
    const byPerson = new Map<string, GroupMember>();
    for (const m of members.filter((row) => row.group_name === g.name)) {
      const member = byPerson.get(m.person_id) ?? {
        personId: m.person_id,
        name: m.name,
        sources: [],
      };
      member.sources.push(m.source);
      byPerson.set(m.person_id, member);
    }
    return { name: g.name, createdAt: num(g.created_at), members: [...byPerson.values()] };
  });
}
