import type Database from 'better-sqlite3';

/**
 * One schema change. Migrations run in order, each in its own transaction, exactly once.
 * Its own file, so that each migration and the list of them (index.ts) import it without
 * importing each other.
 */
export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}
