import type { Migration } from './migration';

/**
 * "What runs when tests run": the files an agent changed that decide what a test,
 * build or git command runs (package.json scripts, Makefiles, git hooks and config …), per
 * project, since the person last approved such a run. One row per project, group and file
 * (the latest change); approving a run of the group deletes the rows it showed. `grp` is
 * `tests` (test and build runners) or `git` (git's config and hooks).
 */
export const migration013: Migration = {
  version: 13,
  name: 'run-input-changes',
  up(db) {
    db.exec(`
      CREATE TABLE run_input_changes (
        project    TEXT NOT NULL,
        grp        TEXT NOT NULL,
        path       TEXT NOT NULL,
        changed_at INTEGER NOT NULL,
        session_id TEXT,
        agent      TEXT NOT NULL,
        action     TEXT NOT NULL,
        PRIMARY KEY (project, grp, path)
      ) WITHOUT ROWID;
    `);
  },
};
