import type { PersonRole } from '../../../shared/hub-protocol';
import type { Person } from './people-repo';
import type { Sql } from './sql';

/**
 * Spends a single-use sign-in token (the code of a sign-in link) in the caller's transaction:
 * the person it names, or why it is refused. The row is locked, so two replicas spending the
 * same code at once cannot both succeed.
 */
export async function spendSignInToken(
  sql: Sql,
  tokenHash: string,
  now: number,
): Promise<{ ok: true; person: Person } | { ok: false; reason: 'unknown' | 'used' | 'expired' }> {
  const [row] = await sql.query<{
    person_id: string;
    name: string;
    role: PersonRole;
    expires_at: string | number | null;
    used_at: string | number | null;
  }>(
    `SELECT p.person_id, p.name, p.role, t.expires_at, t.used_at FROM person_tokens t
     JOIN people p USING (person_id) WHERE t.token_hash = $1 AND t.kind = 'sign_in' FOR UPDATE OF t`,
    [tokenHash],
  );
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.used_at !== null) return { ok: false, reason: 'used' };
  if (row.expires_at !== null && Number(row.expires_at) <= now)
    return { ok: false, reason: 'expired' };
  await sql.query('UPDATE person_tokens SET used_at = $2 WHERE token_hash = $1', [tokenHash, now]);
  return { ok: true, person: { personId: row.person_id, name: row.name, role: row.role } };
}
