import type { Sql } from './sql';

/**
 * How long a spent or expired sign-in stays before it is deleted: a link presented again
 * within this time is still refused as `used`/`expired` (not `unknown`), which tells the
 * person what happened.
 */
export const DEAD_SIGN_IN_KEPT_MS = 24 * 60 * 60_000;

/**
 * Deletes what can never sign anyone in again, so the tables do not grow forever: browser
 * sessions ended or expired longer than {@link DEAD_SIGN_IN_KEPT_MS} ago (except each
 * person's newest, which `user list` shows as their last sign-in), and sign-in links (or
 * personal tokens with an expiry) spent or expired that long ago. Returns how many went.
 */
export async function deleteDeadSignIns(
  sql: Sql,
  now: number,
): Promise<{ sessions: number; tokens: number }> {
  const before = now - DEAD_SIGN_IN_KEPT_MS;
  const sessions = await sql.query<{ session_hash: string }>(
    `DELETE FROM browser_sessions s
     WHERE (s.ended_at < $1 OR s.expires_at < $1)
       AND s.created_at < (SELECT MAX(n.created_at) FROM browser_sessions n WHERE n.person_id = s.person_id)
     RETURNING s.session_hash`,
    [before],
  );
  const tokens = await sql.query<{ token_hash: string }>(
    `DELETE FROM person_tokens
     WHERE (kind = 'sign_in' AND used_at < $1) OR expires_at < $1
     RETURNING token_hash`,
    [before],
  );
  return { sessions: sessions.length, tokens: tokens.length };
}
