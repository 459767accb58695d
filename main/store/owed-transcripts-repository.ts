import type Database from 'better-sqlite3';
import type { OwedTranscriptFile } from '../engine/sessions/sessions-store';

/** A page of owed files, in session id order on the primary key (start-up reads it). */
export const OWED_PAGE_SQL = `SELECT session_id AS sessionId, connections FROM transcript_files_owed
  WHERE session_id > ? ORDER BY session_id LIMIT ?`;

/** The transcript files still owed (migration 012): one row per ended session whose file is not in place yet. */
export class OwedTranscriptsRepository {
  private readonly oweStmt;
  private readonly pageStmt;
  private readonly clearStmt;

  constructor(db: Database.Database) {
    this.oweStmt = db.prepare(
      'INSERT OR REPLACE INTO transcript_files_owed (session_id, connections) VALUES (?, ?)',
    );
    this.pageStmt = db.prepare(OWED_PAGE_SQL);
    this.clearStmt = db.prepare('DELETE FROM transcript_files_owed WHERE session_id = ?');
  }

  oweTranscriptFile(sessionId: string, connections: number): void {
    this.oweStmt.run(sessionId, connections);
  }

  /** Owed files after `after` in session id order, at most `limit` (on the primary key). */
  owedTranscriptFiles(after: string, limit: number): OwedTranscriptFile[] {
    return this.pageStmt.all(after, limit) as OwedTranscriptFile[];
  }

  transcriptFileWritten(sessionId: string): void {
    this.clearStmt.run(sessionId);
  }
}
