import type Database from 'better-sqlite3';
import type { ShadowRecord } from '../../shared/policy/team-policy';

/** The accepted bundle as stored: the hub's exact text, its signature and the key it passed. */
export interface StoredTeamPolicy {
  version: number;
  payload: string;
  signature: string;
  hubKey: string;
  acceptedAt: number;
}

/** What a machine keeps of its team policy (migration 021): the bundle and shadow records. */
export class TeamPolicyRepository {
  constructor(private readonly db: Database.Database) {}

  load(): StoredTeamPolicy | undefined {
    const row = this.db
      .prepare(
        'SELECT version, payload, signature, hub_key AS hubKey, accepted_at AS acceptedAt FROM team_policy WHERE id = 1',
      )
      .get() as StoredTeamPolicy | undefined;
    return row;
  }

  save(p: StoredTeamPolicy): void {
    this.db
      .prepare(
        `INSERT INTO team_policy (id, version, payload, signature, hub_key, accepted_at)
         VALUES (1, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET version = excluded.version, payload = excluded.payload,
           signature = excluded.signature, hub_key = excluded.hub_key,
           accepted_at = excluded.accepted_at`,
      )
      .run(p.version, p.payload, p.signature, p.hubKey, p.acceptedAt);
  }

  /** Keeps one shadow record; returns it with its id. */
  addShadow(r: Omit<ShadowRecord, 'id'>): ShadowRecord {
    const info = this.db
      .prepare('INSERT INTO team_shadow (at, body) VALUES (?, ?)')
      .run(r.at, JSON.stringify(r));
    return { ...r, id: Number(info.lastInsertRowid) };
  }

  /** The oldest records the hub has not acknowledged, at most `limit`. */
  unsentShadow(limit: number): ShadowRecord[] {
    const rows = this.db
      .prepare('SELECT id, body FROM team_shadow WHERE sent = 0 ORDER BY id LIMIT ?')
      .all(limit) as { id: number; body: string }[];
    return rows.map((row) => ({
      ...(JSON.parse(row.body) as Omit<ShadowRecord, 'id'>),
      id: row.id,
    }));
  }

  /** The hub stored everything up to `id`. */
  markShadowSent(upTo: number): void {
    this.db.prepare('UPDATE team_shadow SET sent = 1 WHERE sent = 0 AND id <= ?').run(upTo);
  }
}
