import type { ChainCheckpoint } from '../../store/audit-chain-repository';
import { num, type Sql } from './sql';

interface CheckpointRow {
  seq: string | number;
  hash: string;
  at: string | number;
  through_at: string | number;
  entries: string | number;
  public_key: string;
  signature: string;
}

const toCheckpoint = (r: CheckpointRow): ChainCheckpoint => ({
  seq: num(r.seq),
  hash: r.hash,
  at: num(r.at),
  throughAt: num(r.through_at),
  entries: num(r.entries),
  publicKey: r.public_key,
  signature: r.signature,
});

/** The hub chain's head: its newest chained entry (seq, link, when it was written). */
export async function hubAuditHead(
  sql: Sql,
): Promise<{ seq: number; hash: string; at: number } | undefined> {
  const [r] = await sql.query<{ seq: string | number; hash: string; at: string | number }>(
    'SELECT seq, hash, at FROM audit WHERE hash IS NOT NULL ORDER BY seq DESC LIMIT 1',
  );
  return r && { seq: num(r.seq), hash: r.hash, at: num(r.at) };
}

/** How many chained entries lie in (afterSeq, throughSeq]. */
export async function countChained(
  sql: Sql,
  afterSeq: number,
  throughSeq: number,
): Promise<number> {
  const [r] = await sql.query<{ n: string | number }>(
    'SELECT count(*) AS n FROM audit WHERE hash IS NOT NULL AND seq > $1 AND seq <= $2',
    [afterSeq, throughSeq],
  );
  return num(r?.n ?? 0);
}

export async function latestHubCheckpoint(sql: Sql): Promise<ChainCheckpoint | undefined> {
  const [r] = await sql.query<CheckpointRow>(
    'SELECT * FROM hub_audit_checkpoints ORDER BY seq DESC LIMIT 1',
  );
  return r && toCheckpoint(r);
}

export async function hubCheckpoints(sql: Sql): Promise<ChainCheckpoint[]> {
  return (await sql.query<CheckpointRow>('SELECT * FROM hub_audit_checkpoints ORDER BY seq')).map(
    toCheckpoint,
  );
}

export async function addHubCheckpoint(sql: Sql, c: ChainCheckpoint): Promise<void> {
  await sql.query(
    `INSERT INTO hub_audit_checkpoints (seq, hash, at, through_at, entries, public_key, signature)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (seq) DO NOTHING`,
    [c.seq, c.hash, c.at, c.throughAt, c.entries, c.publicKey, c.signature],
  );
}

/** The audit key pinned for a machine, if one was. */
export async function pinnedAuditKey(sql: Sql, machineId: string): Promise<string | undefined> {
  const [r] = await sql.query<{ public_key: string }>(
    'SELECT public_key FROM machine_audit_keys WHERE machine_id = $1',
    [machineId],
  );
  return r?.public_key;
}

/** Pins `publicKey` unless a key is pinned already; answers the pinned key either way. */
export async function pinAuditKey(
  sql: Sql,
  machineId: string,
  publicKey: string,
  now: number,
): Promise<string> {
  await sql.query(
    `INSERT INTO machine_audit_keys (machine_id, public_key, pinned_at) VALUES ($1, $2, $3)
     ON CONFLICT (machine_id) DO NOTHING`,
    [machineId, publicKey, now],
  );
  return (await pinnedAuditKey(sql, machineId)) ?? publicKey;
}

/**
 * Keeps a machine's checkpoint unless the hub has one at that number: the first copy stays.
 * Answers the copy kept before, when there was one.
 */
export async function keepMachineCheckpoint(
  sql: Sql,
  machineId: string,
  c: ChainCheckpoint,
  now: number,
): Promise<ChainCheckpoint | undefined> {
  const inserted = await sql.query<{ seq: string | number }>(
    `INSERT INTO machine_audit_checkpoints
       (machine_id, seq, hash, at, through_at, entries, signature, received_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (machine_id, seq) DO NOTHING RETURNING seq`,
    [machineId, c.seq, c.hash, c.at, c.throughAt, c.entries, c.signature, now],
  );
  if (inserted.length > 0) return undefined;
  const [r] = await sql.query<CheckpointRow>(
    `SELECT c.*, k.public_key FROM machine_audit_checkpoints c
       JOIN machine_audit_keys k USING (machine_id)
     WHERE c.machine_id = $1 AND c.seq = $2`,
    [machineId, c.seq],
  );
  return r && toCheckpoint(r);
}

/** The newest checkpoint of a machine the hub holds (0: none). */
export async function newestMachineCheckpoint(sql: Sql, machineId: string): Promise<number> {
  const [r] = await sql.query<{ seq: string | number | null }>(
    'SELECT max(seq) AS seq FROM machine_audit_checkpoints WHERE machine_id = $1',
    [machineId],
  );
  return num(r?.seq ?? 0);
}

/** Up to `limit` of a machine's checkpoints after `afterSeq`, oldest first, with the pinned key. */
export async function machineCheckpointsAfter(
  sql: Sql,
  machineId: string,
  afterSeq: number,
  limit: number,
): Promise<ChainCheckpoint[]> {
  return (
    await sql.query<CheckpointRow>(
      `SELECT c.*, k.public_key FROM machine_audit_checkpoints c
         JOIN machine_audit_keys k USING (machine_id)
       WHERE c.machine_id = $1 AND c.seq > $2 ORDER BY c.seq LIMIT $3`,
      [machineId, afterSeq, limit],
    )
  ).map(toCheckpoint);
}
