import type { Migration } from './migration';

/**
 * Trust in project policy files (`.gatehouse.toml`), bound to content like direnv's `allow`:
 * - `policy_trust`: the content (sha256 of the exact bytes) the person trusted for a project,
 *   when, and through which channel, with the policy it parsed to (so that its restrictions
 *   still hold after an edit). One row per project: trusting new content replaces it.
 * - `policy_files_seen`: projects whose policy file an agent's session used, with the hash last
 *   seen, so that the person can review files they have never looked at.
 * - `policy_trust_notices`: which untrusted (project, content) pairs the person was already told
 *   about, so that each is told once, across restarts.
 */
export const migration006: Migration = {
  version: 6,
  name: 'policy-trust',
  up(db) {
    db.exec(`
      CREATE TABLE policy_trust (
        project_dir TEXT PRIMARY KEY,
        file        TEXT NOT NULL,
        sha256      TEXT NOT NULL,
        trusted_at  INTEGER NOT NULL,
        trusted_via TEXT NOT NULL,
        policy_json TEXT NOT NULL
      );

      CREATE TABLE policy_files_seen (
        project_dir TEXT PRIMARY KEY,
        file        TEXT NOT NULL,
        sha256      TEXT NOT NULL,
        seen_at     INTEGER NOT NULL
      );

      CREATE TABLE policy_trust_notices (
        project_dir TEXT NOT NULL,
        sha256      TEXT NOT NULL,
        notified_at INTEGER NOT NULL,
        PRIMARY KEY (project_dir, sha256)
      );
    `);
  },
};
