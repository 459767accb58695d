import type { Migration } from './migration';
import { decisionPattern } from '../../engine/policy/decision-pattern';
import { BY_PERSON_SQL } from '../decided-by-sql';
import { requestDirs } from '../../../shared/policy/rule-match';

/**
 * A person's decisions keep their pattern (main/engine/policy/decision-pattern.ts):
 * - `requests.draft_pattern`: written as the person decides, from the whole request. Rule
 *   suggestions read their columns without the context (thousands of rows), so a call made in
 *   a subfolder was counted and suggested with the project root's paths; drafted with its
 *   context, each path is named where its call ran. Filled here for the decisions made so far.
 * - `requests.run_dir`: the directory the decided call ran in (its context's `workdir` or
 *   `cwd`), so that a suggestion's rule is checked against the call where it ran.
 * - `requests_human_decided` now holds the pattern in place of the columns it is drafted
 *   from (migration 016): a session's end compares the newest 10,000 decisions' patterns
 *   inside SQLite, on the index alone, instead of drafting each one in JavaScript.
 */
export const migration026: Migration = {
  version: 26,
  name: 'decision-patterns',
  up(db) {
    db.exec(`ALTER TABLE requests ADD COLUMN draft_pattern TEXT;
      ALTER TABLE requests ADD COLUMN run_dir TEXT;`);
    const decided = db
      .prepare(
        `SELECT request_key AS key, action, command, target, paths_json AS pathsJson, project,
         json_extract(context_json, '$.workdir') AS workdir, json_extract(context_json, '$.cwd') AS cwd
         FROM requests WHERE ${BY_PERSON_SQL}`,
      )
      .all() as {
      key: number;
      action: string;
      command: string | null;
      target: string | null;
      pathsJson: string | null;
      project: string | null;
      workdir: unknown;
      cwd: unknown;
    }[];
    const set = db.prepare(
      'UPDATE requests SET draft_pattern = ?, run_dir = ? WHERE request_key = ?',
    );
    for (const r of decided) {
      const context = { workdir: r.workdir, cwd: r.cwd };
      const paths = r.pathsJson === null ? undefined : (JSON.parse(r.pathsJson) as string[] | null);
      const pattern = decisionPattern({
        action: r.action,
        ...(r.command !== null ? { command: r.command } : {}),
        ...(r.target !== null ? { target: r.target } : {}),
        ...(paths ? { paths } : {}),
        ...(r.project !== null ? { project: r.project } : {}),
        context,
      });
      set.run(pattern, requestDirs(context)?.[0] ?? null, r.key);
    }
    db.exec(`
      DROP INDEX requests_human_decided;
      CREATE INDEX requests_human_decided ON requests(decided_at, session_id, status,
        draft_pattern) WHERE ${BY_PERSON_SQL};
    `);
  },
};
