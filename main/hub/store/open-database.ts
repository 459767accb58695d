import { mkdirSync } from 'node:fs';
import { migrate } from './migrate';
import { openPgDatabase } from './pg-database';
import { openPgliteDatabase } from './pglite-database';
import type { SqlDatabase } from './sql';

/** A database URL the hub cannot use, or a database it cannot reach; the message says which. */
export class HubDatabaseError extends Error {}

/** What `--database-url` accepts: a PostgreSQL URL, with the password hidden in messages. */
export function parseDatabaseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new HubDatabaseError(
      `the database URL is not a URL: expected postgres://user@host:5432/db`,
    );
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new HubDatabaseError(
      `the database URL must start with postgres:// or postgresql://, not ${parsed.protocol}//`,
    );
  if (!parsed.hostname && !parsed.searchParams.get('host'))
    throw new HubDatabaseError('the database URL names no host');
  return parsed;
}

/** The URL as it may be printed: no password. */
export function redactedUrl(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password) copy.password = '***';
  return copy.href;
}

/**
 * Opens the hub's database and brings its schema up to date: the server at `url` when given,
 * else the embedded PostgreSQL with its data in `dataDir`.
 */
export async function openHubDatabase(o: { url?: string; dataDir: string }): Promise<SqlDatabase> {
  let db: SqlDatabase;
  if (o.url) {
    const url = parseDatabaseUrl(o.url);
    try {
      db = await openPgDatabase(url.href);
    } catch (error) {
      throw new HubDatabaseError(
        `cannot reach the database at ${redactedUrl(url)}: ${(error as Error).message || String(error)}`,
      );
    }
  } else {
    mkdirSync(o.dataDir, { recursive: true, mode: 0o700 });
    db = await openPgliteDatabase(o.dataDir);
  }
  try {
    await migrate(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return db;
}
