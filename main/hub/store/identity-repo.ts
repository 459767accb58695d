import type { Ed25519Pair } from '../../../shared/node/hub-keys';
import type { Sql } from './sql';

/**
 * The hub's key pair, made by the first replica that starts and read by every other: the one
 * row is inserted only when missing, so replicas starting together agree on one key.
 */
export async function ensureHubIdentity(
  sql: Sql,
  fresh: () => Ed25519Pair,
  now: number,
): Promise<Ed25519Pair> {
  const pair = fresh();
  await sql.query(
    `INSERT INTO hub_identity (id, public_key, private_key, created_at) VALUES (1, $1, $2, $3)
     ON CONFLICT (id) DO NOTHING`,
    [pair.publicKey, pair.privateKeyPem, now],
  );
  const [row] = await sql.query<{ public_key: string; private_key: string }>(
    'SELECT public_key, private_key FROM hub_identity WHERE id = 1',
  );
  return { publicKey: row!.public_key, privateKeyPem: row!.private_key };
}
