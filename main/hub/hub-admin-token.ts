import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { secretsEqual } from '../../shared/node/secrets-equal';
import { hashSecret } from './hub-service';
import { adminTokenHash, claimAdminToken } from './store/admin-token-repo';
import type { SqlDatabase } from './store/sql';

/** Whether this host holds the hub's admin token, as the replica found it at start. */
export type AdminTokenOnHost = 'made' | 'adopted' | 'held' | 'missing' | 'stale';

/**
 * The hub's one admin token, kept in the database by its hash so every replica accepts it.
 * The first replica to start makes it (or adopts the token file its host already has, the
 * per-host token of earlier versions) and is the only one that writes the token itself, 0600,
 * in its `hub/admin.token`. Another host runs the admin commands with a copy of that file.
 */
export async function settleAdminToken(
  db: SqlDatabase,
  file: string,
  now: number,
): Promise<AdminTokenOnHost> {
  const local = existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
  const existing = await adminTokenHash(db);
  if (existing)
    return local === undefined
      ? 'missing'
      : secretsEqual(hashSecret(local), existing)
        ? 'held'
        : 'stale';
  const token = local && local.length >= 32 ? local : randomBytes(32).toString('base64url');
  if (!(await claimAdminToken(db, hashSecret(token), now))) return settleAdminToken(db, file, now);
  if (token !== local) {
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return token === local ? 'adopted' : 'made';
}

/** True when `token` is the hub's admin token (read from the database: any replica's). */
export async function isAdminToken(db: SqlDatabase, token: string): Promise<boolean> {
  const hash = await adminTokenHash(db);
  return hash !== undefined && secretsEqual(hashSecret(token), hash);
}

/** What the replica says at start about the admin token on its host. */
export function adminTokenLine(state: AdminTokenOnHost, file: string): string | undefined {
  switch (state) {
    case 'made':
      return `gatehouse hub: made the hub's admin token in ${file} (copy it to run the admin commands on another replica's host)`;
    case 'missing':
      return `gatehouse hub: this host has no copy of the hub's admin token: copy hub/admin.token from the host that made it to run the admin commands here`;
    case 'stale':
      return `gatehouse hub: WARNING: ${file} is not the hub's admin token (the hub has one already): replace it with the hub's to run the admin commands here`;
    default:
      return undefined;
  }
}
