import type { Sql } from './sql';

/** The hash of the hub's admin token, if one was made. */
export async function adminTokenHash(sql: Sql): Promise<string | undefined> {
  const [row] = await sql.query<{ token_hash: string }>(
    'SELECT token_hash FROM hub_admin_token WHERE id = 1',
  );
  return row?.token_hash;
}

/**
 * Records the hub's admin token (by hash) unless one exists: true when this call made it, so
 * replicas starting together agree on one token.
 */
export async function claimAdminToken(sql: Sql, tokenHash: string, now: number): Promise<boolean> {
  const rows = await sql.query<{ id: number }>(
    `INSERT INTO hub_admin_token (id, token_hash, created_at) VALUES (1, $1, $2)
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    [tokenHash, now],
  );
  return rows.length === 1;
}
