import type { PersonRole } from '../../../shared/hub-protocol';
import { toRequest, type HubRequest, type HubRequestRow } from './requests-repo';
import { attentionRankSql } from './attention-sql';
import { num, type Sql } from './sql';

export interface PersonNotifyRow {
  personId: string;
  name: string;
  role: PersonRole;
  prefs: unknown;
  updatedAt: number;
}

export async function readPersonNotify(
  sql: Sql,
  personId: string,
): Promise<{ prefs: unknown; updatedAt: number } | undefined> {
  const [row] = await sql.query<{ prefs: unknown; updated_at: string | number }>(
    'SELECT prefs, updated_at FROM person_notify WHERE person_id = $1',
    [personId],
  );
  return row ? { prefs: row.prefs, updatedAt: num(row.updated_at) } : undefined;
}

export async function writePersonNotify(
  sql: Sql,
  personId: string,
  prefs: Record<string, unknown>,
  now: number,
): Promise<void> {
  await sql.query(
    `INSERT INTO person_notify (person_id, prefs, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (person_id) DO UPDATE SET prefs = EXCLUDED.prefs, updated_at = EXCLUDED.updated_at`,
    [personId, prefs, now],
  );
}

/** Everyone who may decide and chose where to be told. */
export async function listPersonNotify(sql: Sql): Promise<PersonNotifyRow[]> {
  const rows = await sql.query<{
    person_id: string;
    name: string;
    role: PersonRole;
    prefs: unknown;
    updated_at: string | number;
  }>(
    `SELECT p.person_id, p.name, p.role, n.prefs, n.updated_at
     FROM person_notify n JOIN people p USING (person_id)
     WHERE p.role IN ('approver', 'admin') ORDER BY p.name`,
  );
  return rows.map((r) => ({
    personId: r.person_id,
    name: r.name,
    role: r.role,
    prefs: r.prefs,
    updatedAt: num(r.updated_at),
  }));
}

/**
 * Claims, in the caller's transaction, up to `limit` requests still waiting that this person
 * was not yet sent a `kind` message about, filed within [`from`, `to`]: each is marked sent
 * and returned in the review queue's order at `now` (the urgency inferred as on the machine). The caller holds the round's advisory lock, and the primary key
 * keeps it once per request, person and kind even without it.
 */
export async function claimForPerson(
  sql: Sql,
  p: {
    personId: string;
    kind: 'new' | 'reminder';
    from?: number;
    to?: number;
    now: number;
    limit: number;
  },
): Promise<HubRequest[]> {
  const rows = await sql.query<HubRequestRow>(
    `SELECT r.*, m.name FROM requests r JOIN machines m USING (machine_id)
     LEFT JOIN person_notified n ON n.machine_id = r.machine_id AND n.request_id = r.request_id
       AND n.person_id = $1 AND n.kind = $2
     WHERE n.request_id IS NULL AND r.status = 'pending' AND m.revoked_at IS NULL
       AND ($3::bigint IS NULL OR r.created_at >= $3)
       AND ($4::bigint IS NULL OR r.created_at <= $4)
     ORDER BY ${attentionRankSql('$6')} DESC, r.created_at, r.request_id LIMIT $5`,
    [p.personId, p.kind, p.from ?? null, p.to ?? null, p.limit, p.now],
  );
  for (const r of rows)
    await sql.query(
      `INSERT INTO person_notified (machine_id, request_id, person_id, kind, sent_at)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [r.machine_id, r.request_id, p.personId, p.kind, p.now],
    );
  return rows.map(toRequest);
}
