import type { PersonRole } from '../../../shared/hub-protocol';
import { num, type Sql } from './sql';

export interface Person {
  personId: string;
  name: string;
  role: PersonRole;
}

export async function addPerson(sql: Sql, p: Person & { now: number }): Promise<void> {
  await sql.query(
    'INSERT INTO people (person_id, name, role, created_at) VALUES ($1, $2, $3, $4)',
    [p.personId, p.name, p.role, p.now],
  );
}

export async function personByName(sql: Sql, name: string): Promise<Person | undefined> {
  const [row] = await sql.query<{ person_id: string; name: string; role: PersonRole }>(
    'SELECT person_id, name, role FROM people WHERE name = $1',
    [name],
  );
  return row ? { personId: row.person_id, name: row.name, role: row.role } : undefined;
}

export async function saveToken(
  sql: Sql,
  t: {
    tokenHash: string;
    personId: string;
    kind: 'sign_in' | 'personal';
    now: number;
    expiresAt?: number;
  },
): Promise<void> {
  await sql.query(
    'INSERT INTO person_tokens (token_hash, person_id, kind, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [t.tokenHash, t.personId, t.kind, t.now, t.expiresAt ?? null],
  );
}

/** The person a personal token belongs to (sign-in tokens never authorise a call). */
export async function personByToken(
  sql: Sql,
  tokenHash: string,
  now: number,
): Promise<Person | undefined> {
  const [row] = await sql.query<{
    person_id: string;
    name: string;
    role: PersonRole;
    expires_at: string | null;
  }>(
    `SELECT p.person_id, p.name, p.role, t.expires_at FROM person_tokens t JOIN people p USING (person_id)
     WHERE t.token_hash = $1 AND t.kind = 'personal'`,
    [tokenHash],
  );
  if (!row || (row.expires_at !== null && num(row.expires_at) <= now)) return undefined;
  return { personId: row.person_id, name: row.name, role: row.role };
}
