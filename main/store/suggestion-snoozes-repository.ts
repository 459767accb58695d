import type Database from 'better-sqlite3';
import type { SuggestionSnoozeRow } from '../engine/policy/policy-store';

/** The rule suggestions a person said "not now" to (see migration 008). */
export class SuggestionSnoozesRepository {
  private readonly upsertStmt;
  private readonly listStmt;
  private readonly pruneStmt;

  constructor(db: Database.Database) {
    this.upsertStmt = db.prepare(
      `INSERT INTO rule_suggestion_snoozes (pattern, snoozed_at, snoozed_until)
       VALUES (@pattern, @snoozedAt, @snoozedUntil)
       ON CONFLICT(pattern) DO UPDATE SET snoozed_at = excluded.snoozed_at,
         snoozed_until = excluded.snoozed_until`,
    );
    this.listStmt = db.prepare(
      'SELECT pattern, snoozed_at, snoozed_until FROM rule_suggestion_snoozes WHERE snoozed_until > ?',
    );
    this.pruneStmt = db.prepare('DELETE FROM rule_suggestion_snoozes WHERE snoozed_until <= ?');
  }

  upsertSuggestionSnooze(row: SuggestionSnoozeRow): void {
    this.upsertStmt.run(row);
  }

  /** Snoozes still running at `now`. */
  listSuggestionSnoozes(now: number): SuggestionSnoozeRow[] {
    return (this.listStmt.all(now) as Record<string, unknown>[]).map((r) => ({
      pattern: r.pattern as string,
      snoozedAt: r.snoozed_at as number,
      snoozedUntil: r.snoozed_until as number,
    }));
  }

  /** Forgets snoozes that ended by `now`. */
  pruneSuggestionSnoozes(now: number): void {
    this.pruneStmt.run(now);
  }
}
