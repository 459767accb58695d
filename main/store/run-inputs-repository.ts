import type Database from 'better-sqlite3';
import type { RunInputChangeRow } from '../engine/policy/policy-store';

type Raw = Record<string, unknown>;

/** Changed files that decide what a test, build or git command runs (migration 013). */
export class RunInputsRepository {
  private readonly upsertStmt;
  private readonly listStmt;
  private readonly clearStmt;

  constructor(db: Database.Database) {
    this.upsertStmt = db.prepare(
      `INSERT INTO run_input_changes (project, grp, path, changed_at, session_id, agent, action)
       VALUES (@project, @group, @path, @changedAt, @sessionId, @agent, @action)
       ON CONFLICT (project, grp, path) DO UPDATE SET changed_at = excluded.changed_at,
         session_id = excluded.session_id, agent = excluded.agent, action = excluded.action`,
    );
    this.listStmt = db.prepare(
      'SELECT * FROM run_input_changes WHERE project = ? AND grp = ? ORDER BY changed_at, path',
    );
    this.clearStmt = db.prepare(
      'DELETE FROM run_input_changes WHERE project = ? AND grp = ? AND changed_at <= ?',
    );
  }

  upsertRunInputChange(row: RunInputChangeRow): void {
    this.upsertStmt.run({ ...row, sessionId: row.sessionId ?? null });
  }

  listRunInputChanges(project: string, group: RunInputChangeRow['group']): RunInputChangeRow[] {
    return (this.listStmt.all(project, group) as Raw[]).map((r) => ({
      project: r.project as string,
      group: r.grp as RunInputChangeRow['group'],
      path: r.path as string,
      changedAt: r.changed_at as number,
      ...(r.session_id === null ? {} : { sessionId: r.session_id as string }),
      agent: r.agent as string,
      action: r.action as string,
    }));
  }

  clearRunInputChanges(project: string, group: RunInputChangeRow['group'], upTo: number): number {
    return this.clearStmt.run(project, group, upTo).changes;
  }
}
