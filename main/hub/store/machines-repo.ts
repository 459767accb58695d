import { num, type Sql } from './sql';

export interface MachineRow {
  machineId: string;
  name: string;
  publicKey: string;
  joinedAt: number;
  revokedAt?: number;
  lastSeenAt?: number;
  version?: string;
  lastSeq: number;
  /** Linked to a replica until then, unless that replica renews it (machine-links.ts). */
  onlineUntil?: number;
  /** The person who owns the machine, as the admin named them at invite (`--owner`). */
  owner?: string;
}

interface Row {
  machine_id: string;
  name: string;
  public_key: string;
  joined_at: string | number;
  revoked_at: string | number | null;
  last_seen_at: string | number | null;
  version: string | null;
  last_seq: string | number;
  online_until: string | number | null;
  owner?: string | null;
}

const toMachine = (r: Row): MachineRow => ({
  machineId: r.machine_id,
  name: r.name,
  publicKey: r.public_key,
  joinedAt: num(r.joined_at),
  ...(r.revoked_at !== null ? { revokedAt: num(r.revoked_at) } : {}),
  ...(r.last_seen_at !== null ? { lastSeenAt: num(r.last_seen_at) } : {}),
  ...(r.version !== null ? { version: r.version } : {}),
  lastSeq: num(r.last_seq),
  ...(r.online_until !== null && r.online_until !== undefined
    ? { onlineUntil: num(r.online_until) }
    : {}),
  ...(r.owner ? { owner: r.owner } : {}),
});

export async function saveJoinCode(
  sql: Sql,
  o: { codeHash: string; machineName: string; now: number; expiresAt: number; owner?: string },
): Promise<void> {
  await sql.query(
    'INSERT INTO join_codes (code_hash, machine_name, created_at, expires_at, owner) VALUES ($1, $2, $3, $4, $5)',
    [o.codeHash, o.machineName, o.now, o.expiresAt, o.owner ?? null],
  );
}

/**
 * Spends a join code: the machine name it was made for, or why not. The row is locked, so two
 * joins with one code (on two replicas) cannot both succeed.
 */
export async function spendJoinCode(
  sql: Sql,
  codeHash: string,
  now: number,
): Promise<
  | { ok: true; machineName: string; owner?: string }
  | { ok: false; reason: 'unknown' | 'used' | 'expired' }
> {
  const [row] = await sql.query<{
    machine_name: string;
    expires_at: string;
    used_at: string | null;
    owner: string | null;
  }>(
    'SELECT machine_name, expires_at, used_at, owner FROM join_codes WHERE code_hash = $1 FOR UPDATE',
    [codeHash],
  );
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.used_at !== null) return { ok: false, reason: 'used' };
  if (num(row.expires_at) <= now) return { ok: false, reason: 'expired' };
  await sql.query('UPDATE join_codes SET used_at = $2 WHERE code_hash = $1', [codeHash, now]);
  return { ok: true, machineName: row.machine_name, ...(row.owner ? { owner: row.owner } : {}) };
}

/** Marks codes past their time as expired; returns how many (the expiry job audits them). */
export async function expireJoinCodes(sql: Sql, now: number): Promise<number> {
  const rows = await sql.query(
    `UPDATE join_codes SET expired_at = $1
     WHERE used_at IS NULL AND expired_at IS NULL AND expires_at <= $1 RETURNING code_hash`,
    [now],
  );
  return rows.length;
}

/**
 * Registers a machine under its invited name. A name joined before (a machine re-joining after
 * `leave` or a re-install) gets the new key and a clean record: its outbox starts again (a
 * new install numbers from 1), so what the hub had acknowledged is reset; a revoked one stays
 * revoked only until an admin invites it again, which is what this join proves.
 */
export async function registerMachine(
  sql: Sql,
  o: {
    machineId: string;
    name: string;
    publicKey: string;
    now: number;
    version?: string;
    owner?: string;
  },
): Promise<MachineRow> {
  const [row] = await sql.query<Row>(
    `INSERT INTO machines (machine_id, name, public_key, joined_at, version, owner)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (name) DO UPDATE SET public_key = EXCLUDED.public_key, joined_at = EXCLUDED.joined_at,
       revoked_at = NULL, version = EXCLUDED.version, last_seq = 0, owner = EXCLUDED.owner
     RETURNING *`,
    [o.machineId, o.name, o.publicKey, o.now, o.version ?? null, o.owner ?? null],
  );
  return toMachine(row!);
}

export async function getMachine(sql: Sql, machineId: string): Promise<MachineRow | undefined> {
  const [row] = await sql.query<Row>('SELECT * FROM machines WHERE machine_id = $1', [machineId]);
  return row ? toMachine(row) : undefined;
}

export async function machineByName(sql: Sql, name: string): Promise<MachineRow | undefined> {
  const [row] = await sql.query<Row>('SELECT * FROM machines WHERE name = $1', [name]);
  return row ? toMachine(row) : undefined;
}

export async function listMachines(sql: Sql): Promise<MachineRow[]> {
  return (await sql.query<Row>('SELECT * FROM machines ORDER BY name')).map(toMachine);
}

/** The machines a person owns that are not revoked (where their desktop notices go). */
export async function machinesOwnedBy(sql: Sql, owner: string): Promise<MachineRow[]> {
  return (
    await sql.query<Row>(
      'SELECT * FROM machines WHERE owner = $1 AND revoked_at IS NULL ORDER BY name',
      [owner],
    )
  ).map(toMachine);
}

export async function revokeMachine(sql: Sql, machineId: string, now: number): Promise<boolean> {
  const rows = await sql.query(
    'UPDATE machines SET revoked_at = $2 WHERE machine_id = $1 AND revoked_at IS NULL RETURNING machine_id',
    [machineId, now],
  );
  return rows.length > 0;
}

export async function touchMachine(
  sql: Sql,
  machineId: string,
  now: number,
  version?: string,
): Promise<void> {
  await sql.query(
    'UPDATE machines SET last_seen_at = $2, version = COALESCE($3, version) WHERE machine_id = $1',
    [machineId, now, version ?? null],
  );
}

/** Marks the machines linked to one replica as online until `until` (and seen now). */
export async function renewOnline(
  sql: Sql,
  machineIds: readonly string[],
  now: number,
  until: number,
): Promise<void> {
  if (machineIds.length === 0) return;
  await sql.query(
    'UPDATE machines SET last_seen_at = $2, online_until = $3 WHERE machine_id = ANY($1::text[])',
    [[...machineIds], now, until],
  );
}

/** A link closed: the machine is offline from now, and was last seen now. */
export async function markOffline(sql: Sql, machineId: string, now: number): Promise<void> {
  await sql.query(
    'UPDATE machines SET last_seen_at = $2, online_until = NULL WHERE machine_id = $1',
    [machineId, now],
  );
}
