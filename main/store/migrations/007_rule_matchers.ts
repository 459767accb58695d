import type { Migration } from './migration';

/**
 * Rules and grants gain matchers below their action (an exact command, a command prefix,
 * path globs), so an "always" or session approval covers what the person saw rather than
 * the whole action. Rules keep one column per matcher (they are listed and read by people);
 * grants keep theirs together as JSON, target and project included.
 *
 * Existing rules and grants have no matchers and stay action-wide, as they were.
 */
export const migration007: Migration = {
  version: 7,
  name: 'rule-matchers',
  up(db) {
    db.exec(`
      ALTER TABLE rules ADD COLUMN command TEXT;
      ALTER TABLE rules ADD COLUMN command_prefix TEXT;
      ALTER TABLE rules ADD COLUMN paths_json TEXT;
      ALTER TABLE grants ADD COLUMN matchers_json TEXT;
    `);
  },
};
