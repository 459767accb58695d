import type { Migration } from './migration';

/**
 * `requests_human_decided` (a person's decisions, newest first) also holds what a rule is
 * drafted from (action, command, target, paths, project) and the session and status: when a
 * session ends, its rule suggestions read the newest 10,000 decisions on the index alone
 * instead of looking up each table row (rule-suggestions.ts, bench/rule-suggestions.bench.mjs).
 * Still partial on `decided_by = 'human'`: a request approved by policy as it is filed does
 * not touch it, so filing costs what it did; a person's decision writes a wider entry.
 */
export const migration016: Migration = {
  version: 16,
  name: 'human-decisions-covering',
  up(db) {
    db.exec(`
      DROP INDEX requests_human_decided;
      CREATE INDEX requests_human_decided ON requests(decided_at, session_id, status, action,
        command, target, paths_json, project) WHERE decided_by = 'human';
    `);
  },
};
