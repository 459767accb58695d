import type { PersonRole } from '../../../shared/hub-protocol';
import { num, type Sql } from './sql';
import type { Person } from './people-repo';

/**
 * Spends a sign-in token: the person it was made for, or why not. One UPDATE marks it used
 * only while it is unused and unexpired, so two browsers (on two replicas) presenting one
 * link cannot both sign in.
 */
export async function spendSignInToken(
  sql: Sql,
  tokenHash: string,
  now: number,
): Promise<{ ok: true; person: Person } | { ok: false; reason: 'unknown' | 'used' | 'expired' }> {
  const [spent] = await sql.query<{ person_id: string }>(
    `UPDATE person_tokens SET used_at = $2
     WHERE token_hash = $1 AND kind = 'sign_in' AND used_at IS NULL AND expires_at > $2
     RETURNING person_id`,
    [tokenHash, now],
  );
  if (spent) {
    const [p] = await sql.query<{ person_id: string; name: string; role: PersonRole }>(
      'SELECT person_id, name, role FROM people WHERE person_id = $1',
      [spent.person_id],
    );
    return { ok: true, person: { personId: p!.person_id, name: p!.name, role: p!.role } };
  }
  const [row] = await sql.query<{ used_at: string | null }>(
    "SELECT used_at FROM person_tokens WHERE token_hash = $1 AND kind = 'sign_in'",
    [tokenHash],
  );
  return { ok: false, reason: !row ? 'unknown' : row.used_at !== null ? 'used' : 'expired' };
}

export async function createSession(
  sql: Sql,
  s: { sessionHash: string; personId: string; now: number; expiresAt: number },
): Promise<void> {
  await sql.query(
    'INSERT INTO browser_sessions (session_hash, person_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
    [s.sessionHash, s.personId, s.now, s.expiresAt],
  );
}

/** The person a live session belongs to: not ended, not expired. */
export async function sessionPerson(
  sql: Sql,
  sessionHash: string,
  now: number,
): Promise<Person | undefined> {
  const [row] = await sql.query<{ person_id: string; name: string; role: PersonRole }>(
    `SELECT p.person_id, p.name, p.role FROM browser_sessions s JOIN people p USING (person_id)
     WHERE s.session_hash = $1 AND s.ended_at IS NULL AND s.expires_at > $2`,
    [sessionHash, now],
  );
  return row ? { personId: row.person_id, name: row.name, role: row.role } : undefined;
}

/** Ends a session (sign out); true when it was live. */
export async function endSession(sql: Sql, sessionHash: string, now: number): Promise<boolean> {
  const rows = await sql.query<{ person_id: string }>(
    `UPDATE browser_sessions SET ended_at = $2 WHERE session_hash = $1 AND ended_at IS NULL
     RETURNING person_id`,
    [sessionHash, now],
  );
  return rows.length > 0;
}

export interface PersonListing {
  name: string;
  role: PersonRole;
  createdAt: number;
  /** The last time a browser of theirs signed in. */
  lastSignInAt?: number;
}

/** Everyone on the hub, by name, with their last sign-in. */
export async function listPeople(sql: Sql): Promise<PersonListing[]> {
  const rows = await sql.query<{
    name: string;
    role: PersonRole;
    created_at: string | number;
    last_sign_in: string | number | null;
  }>(
    `SELECT p.name, p.role, p.created_at, MAX(s.created_at) AS last_sign_in
     FROM people p LEFT JOIN browser_sessions s USING (person_id)
     GROUP BY p.person_id, p.name, p.role, p.created_at ORDER BY p.name`,
  );
  return rows.map((r) => ({
    name: r.name,
    role: r.role,
    createdAt: num(r.created_at),
    ...(r.last_sign_in !== null ? { lastSignInAt: num(r.last_sign_in) } : {}),
  }));
}
