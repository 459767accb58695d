import type { Database } from 'better-sqlite3';

/** How much history {@link seedHistory} writes, spread over `days` days before `now` (ms). */
export interface SeedOptions {
  now: number;
  days: number;
  sessions: number;
  requests: number;
  /** The newest `pending` requests are left waiting. */
  pending: number;
  audit: number;
}

export function seedHistory(db: Database, options: SeedOptions): void;
