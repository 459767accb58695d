import type { Migration } from './migration';

/**
 * The transcript files still owed: a row is written in the same transaction as a
 * session's end and deleted once its `transcripts/<session>.json` is renamed into place, so
 * a file a crash (kill -9, power loss) kept from being written is found and written at the
 * next start. A table of its own, not a column of `sessions`: it holds only what is owed
 * (a handful of rows), so start-up reads it whole on its primary key whatever the number of
 * sessions. `connections` is the session's connection count at its end, which the file's
 * `session` record carries, so a rewritten file is the one the end would have written.
 *
 * Sessions deleted by retention take their row with them (the trigger), so a pruned session
 * is never written back. Sessions ended before this migration are not owed: whether their
 * file is there is not in the database, and finding out means reading the folder.
 */
export const migration012: Migration = {
  version: 12,
  name: 'transcript-files-owed',
  up(db) {
    db.exec(`
      CREATE TABLE transcript_files_owed (
        session_id  TEXT PRIMARY KEY,
        connections INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TRIGGER transcript_files_owed_session_gone AFTER DELETE ON sessions
      BEGIN
        DELETE FROM transcript_files_owed WHERE session_id = OLD.session_id;
      END;
    `);
  },
};
