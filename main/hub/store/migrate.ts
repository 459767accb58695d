import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlDatabase } from './sql';

/** Held while migrating, so that replicas starting together migrate once. */
const MIGRATION_LOCK = 7_230_023_001;

export interface SqlMigration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The numbered migrations (`001_name.sql`…). The sources run from main/hub/store/migrations
 * under the tests; the build copies them to dist/hub/migrations beside the bundled chunks.
 */
export function migrationsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [
    join(here, 'migrations'),
    join(here, '..', 'hub', 'migrations'),
    join(here, '..', '..', 'dist', 'hub', 'migrations'),
  ];
  return candidates.find((c) => existsSync(join(c, '001_hub.sql'))) ?? candidates[0]!;
}

export function readMigrations(dir = migrationsDir()): SqlMigration[] {
  return readdirSync(dir)
    .flatMap((file) => {
      const m = /^(\d{3})_([a-z0-9_]+)\.sql$/.exec(file);
      return m
        ? [{ version: Number(m[1]), name: m[2]!, sql: readFileSync(join(dir, file), 'utf8') }]
        : [];
    })
    .sort((a, b) => a.version - b.version);
}

/**
 * Brings the schema up to date: each migration not yet applied runs in one transaction with
 * its row in `hub_migrations`, under an advisory lock (the bookkeeping table too), in version order. Returns the versions
 * it applied.
 */
export async function migrate(db: SqlDatabase, migrations = readMigrations()): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    // Made under the lock: two replicas starting together on an empty database would
    // otherwise race in CREATE TABLE IF NOT EXISTS, which PostgreSQL does not make safe
    // against a concurrent create (one fails on pg_type's unique index).
    await tx.query(
      `CREATE TABLE IF NOT EXISTS hub_migrations (version INT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`,
    );
    const done = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM hub_migrations')).map((r) =>
        Number(r.version),
      ),
    );
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query('INSERT INTO hub_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        m.version,
        m.name,
        Date.now(),
      ]);
      applied.push(m.version);
    }
    return applied;
  });
}

/**
 * A migration's statements, one by one (a parameterless query may hold several on a server,
 * but not inside PGlite's transaction): split at semicolons that end a line, comments dropped.
 * Migrations hold no function bodies, so no semicolon inside a statement ends a line.
 */
export function splitStatements(sql: string): string[] {
  return sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter(Boolean);
}
