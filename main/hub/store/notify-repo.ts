import { toRequest, type HubRequest, type HubRequestRow } from './requests-repo';
import { attentionRankSql } from './attention-sql';
import type { Sql } from './sql';

export async function readNotifyConfig(sql: Sql): Promise<unknown> {
  const [row] = await sql.query<{ config: unknown }>(
    'SELECT config FROM hub_notify_config WHERE id = 1',
  );
  return row?.config;
}

export async function writeNotifyConfig(
  sql: Sql,
  config: Record<string, unknown>,
  now: number,
): Promise<void> {
  await sql.query(
    `INSERT INTO hub_notify_config (id, config, updated_at) VALUES (1, $1, $2)
     ON CONFLICT (id) DO UPDATE SET config = EXCLUDED.config, updated_at = EXCLUDED.updated_at`,
    [config, now],
  );
}

/**
 * Claims, in the caller's transaction, up to `limit` waiting requests nobody was notified of
 * yet: they are marked notified and returned in the review queue's order at `now` (what needs
 * a person first, the urgency inferred as on the machine), so a backlog sends the urgent first.
 */
export async function claimUnnotified(sql: Sql, now: number, limit: number): Promise<HubRequest[]> {
  const rows = await sql.query<HubRequestRow>(
    `SELECT r.*, m.name FROM requests r JOIN machines m USING (machine_id)
     LEFT JOIN hub_notified n ON n.machine_id = r.machine_id AND n.request_id = r.request_id
     WHERE n.request_id IS NULL AND r.status = 'pending' AND m.revoked_at IS NULL
     ORDER BY ${attentionRankSql('$2')} DESC, r.created_at, r.request_id LIMIT $1`,
    [limit, now],
  );
  for (const r of rows)
    await sql.query(
      'INSERT INTO hub_notified (machine_id, request_id, notified_at) VALUES ($1, $2, $3)',
      [r.machine_id, r.request_id, now],
    );
  return rows.map(toRequest);
}
