import type { PersonRole } from '../../../shared/hub-protocol';
import type { Person } from './people-repo';
import { num, type Sql } from './sql';

/** A passkey as the hub keeps it (base64url id and COSE public key). */
export interface StoredPasskey {
  credentialId: string;
  personId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  createdAt: number;
  lastUsedAt?: number;
}

export type ChallengePurpose = 'register' | 'sign_in' | 'step_up';

interface PasskeyRow {
  credential_id: string;
  person_id: string;
  public_key: string;
  counter: string | number;
  transports: string;
  created_at: string | number;
  last_used_at: string | number | null;
}

const passkey = (r: PasskeyRow): StoredPasskey => ({
  credentialId: r.credential_id,
  personId: r.person_id,
  publicKey: r.public_key,
  counter: num(r.counter),
  transports: r.transports ? r.transports.split(',') : [],
  createdAt: num(r.created_at),
  ...(r.last_used_at !== null ? { lastUsedAt: num(r.last_used_at) } : {}),
});

/** Stores a new passkey; false when its credential id is already on the hub (anyone's). */
export async function addPasskey(sql: Sql, p: Omit<StoredPasskey, 'lastUsedAt'>): Promise<boolean> {
  const rows = await sql.query<{ credential_id: string }>(
    `INSERT INTO passkeys (credential_id, person_id, public_key, counter, transports, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (credential_id) DO NOTHING RETURNING credential_id`,
    [p.credentialId, p.personId, p.publicKey, p.counter, p.transports.join(','), p.createdAt],
  );
  return rows.length > 0;
}

/** One person's passkeys, oldest first. */
export async function passkeysOf(sql: Sql, personId: string): Promise<StoredPasskey[]> {
  const rows = await sql.query<PasskeyRow>(
    'SELECT * FROM passkeys WHERE person_id = $1 ORDER BY created_at, credential_id',
    [personId],
  );
  return rows.map(passkey);
}

/** A passkey by its credential id, with the person it belongs to. */
export async function passkeyById(
  sql: Sql,
  credentialId: string,
): Promise<{ passkey: StoredPasskey; person: Person } | undefined> {
  const [row] = await sql.query<PasskeyRow & { name: string; role: PersonRole }>(
    `SELECT k.*, p.name, p.role FROM passkeys k JOIN people p USING (person_id)
     WHERE k.credential_id = $1`,
    [credentialId],
  );
  return row
    ? { passkey: passkey(row), person: { personId: row.person_id, name: row.name, role: row.role } }
    : undefined;
}

/**
 * Records a use of the passkey with the counter its authenticator signed. The row changes only
 * when the counter grew (or the authenticator keeps none: both zero), so of two replicas
 * accepting the same counter at once only one succeeds; false means a regression.
 */
export async function recordPasskeyUse(
  sql: Sql,
  credentialId: string,
  counter: number,
  now: number,
): Promise<boolean> {
  const rows = await sql.query<{ credential_id: string }>(
    `UPDATE passkeys SET counter = $2, last_used_at = $3
     WHERE credential_id = $1 AND (counter < $2 OR (counter = 0 AND $2 = 0))
     RETURNING credential_id`,
    [credentialId, counter, now],
  );
  return rows.length > 0;
}

/** Removes one of a person's passkeys; false when they have none by that id. */
export async function removePasskey(
  sql: Sql,
  personId: string,
  credentialId: string,
): Promise<boolean> {
  const rows = await sql.query<{ credential_id: string }>(
    'DELETE FROM passkeys WHERE person_id = $1 AND credential_id = $2 RETURNING credential_id',
    [personId, credentialId],
  );
  return rows.length > 0;
}

/** Removes every passkey of a person (the hub admin's reset); how many there were. */
export async function removeAllPasskeys(sql: Sql, personId: string): Promise<number> {
  const rows = await sql.query<{ credential_id: string }>(
    'DELETE FROM passkeys WHERE person_id = $1 RETURNING credential_id',
    [personId],
  );
  return rows.length;
}

/** Keeps a challenge for one ceremony, and drops the expired ones while at it. */
export async function saveChallenge(
  sql: Sql,
  c: {
    challenge: string;
    purpose: ChallengePurpose;
    sessionHash?: string;
    now: number;
    expiresAt: number;
  },
): Promise<void> {
  await sql.query('DELETE FROM passkey_challenges WHERE expires_at <= $1', [c.now]);
  await sql.query(
    `INSERT INTO passkey_challenges (challenge, purpose, session_hash, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [c.challenge, c.purpose, c.sessionHash ?? null, c.now, c.expiresAt],
  );
}

/**
 * Spends a challenge: true only when it was live, for this purpose and (for a session's
 * ceremony) for this session. It is deleted whatever the answer, so a second use of the same
 * challenge, on any replica, finds nothing.
 */
export async function spendChallenge(
  sql: Sql,
  c: { challenge: string; purpose: ChallengePurpose; sessionHash?: string; now: number },
): Promise<boolean> {
  const [row] = await sql.query<{
    purpose: string;
    session_hash: string | null;
    expires_at: string | number;
  }>(
    'DELETE FROM passkey_challenges WHERE challenge = $1 RETURNING purpose, session_hash, expires_at',
    [c.challenge],
  );
  return (
    row !== undefined &&
    row.purpose === c.purpose &&
    (row.session_hash ?? undefined) === c.sessionHash &&
    num(row.expires_at) > c.now
  );
}

/** Marks a live session as confirmed with a passkey. */
export async function markSessionPasskey(
  sql: Sql,
  sessionHash: string,
  now: number,
): Promise<void> {
  await sql.query(
    'UPDATE browser_sessions SET passkey_at = $2 WHERE session_hash = $1 AND ended_at IS NULL',
    [sessionHash, now],
  );
}

/** When the session was confirmed with a passkey, if it was. */
export async function sessionPasskeyAt(sql: Sql, sessionHash: string): Promise<number | undefined> {
  const [row] = await sql.query<{ passkey_at: string | number | null }>(
    'SELECT passkey_at FROM browser_sessions WHERE session_hash = $1',
    [sessionHash],
  );
  return row?.passkey_at != null ? num(row.passkey_at) : undefined;
}

/** Ends every live browser session of a person; how many there were. */
export async function endSessionsOf(sql: Sql, personId: string, now: number): Promise<number> {
  const rows = await sql.query<{ session_hash: string }>(
    `UPDATE browser_sessions SET ended_at = $2 WHERE person_id = $1 AND ended_at IS NULL
     RETURNING session_hash`,
    [personId, now],
  );
  return rows.length;
}

/** How many challenges of one purpose are live now (handed out, not spent, not expired). */
export async function liveChallenges(
  sql: Sql,
  purpose: ChallengePurpose,
  now: number,
): Promise<number> {
  const [row] = await sql.query<{ n: string | number }>(
    'SELECT COUNT(*) AS n FROM passkey_challenges WHERE purpose = $1 AND expires_at > $2',
    [purpose, now],
  );
  return num(row?.n ?? 0);
}
