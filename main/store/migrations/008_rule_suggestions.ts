import type { Migration } from './migration';

/**
 * Rule suggestions ("you approved this 5 times: make it a rule"):
 * - `rule_suggestion_snoozes`: the patterns the person said "not now" to, until when. A
 *   pattern is the narrowest rule draft of its requests, as canonical JSON, so a snooze
 *   outlives a restart and never hides another pattern.
 * - `requests.decided_via`: the channel a person decided through (cli, dashboard, desktop,
 *   notification, socket), for the suggestion's history and the audit.
 * - `requests_human_decided`: suggestions are computed on demand from the requests a person
 *   decided; this partial index finds them without walking the (far larger) rest. Rows
 *   settled by policy, rules or grants are not in it, so filing a request costs nothing more.
 */
export const migration008: Migration = {
  version: 8,
  name: 'rule-suggestions',
  up(db) {
    db.exec(`
      CREATE TABLE rule_suggestion_snoozes (
        pattern       TEXT PRIMARY KEY,
        snoozed_at    INTEGER NOT NULL,
        snoozed_until INTEGER NOT NULL
      );
      ALTER TABLE requests ADD COLUMN decided_via TEXT;
      CREATE INDEX requests_human_decided ON requests(decided_at) WHERE decided_by = 'human';
    `);
  },
};
