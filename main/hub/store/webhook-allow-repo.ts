import type { Sql } from './sql';

/** The admin's webhook allow-list (entries as stored; the caller parses them). */
export async function readWebhookAllow(sql: Sql): Promise<unknown> {
  const [row] = await sql.query<{ entries: unknown }>(
    'SELECT entries FROM hub_webhook_allow WHERE id = 1',
  );
  return row?.entries;
}

export async function writeWebhookAllow(sql: Sql, entries: string[], now: number): Promise<void> {
  await sql.query(
    `INSERT INTO hub_webhook_allow (id, entries, updated_at) VALUES (1, $1, $2)
     ON CONFLICT (id) DO UPDATE SET entries = EXCLUDED.entries, updated_at = EXCLUDED.updated_at`,
    [JSON.stringify(entries), now],
  );
}
