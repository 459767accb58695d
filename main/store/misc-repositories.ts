import type Database from 'better-sqlite3';
import type { RuleRecord, TranscriptEntry } from '../../shared/domain';
import type { ControlRow } from '../engine/controls/controls-store';
import { orUndefined, parseJson, toJson } from './row-mapping';

type Raw = Record<string, unknown>;

/** User rules that promote or demote actions. */
export class RulesRepository {
  private readonly insertStmt;
  private readonly listStmt;
  private readonly deleteStmt;

  constructor(db: Database.Database) {
    this.insertStmt =
      db.prepare(`INSERT INTO rules (rule_id, action, tier, project, target, command,
      command_prefix, paths_json, source, note, created_at) VALUES (@ruleId, @action, @tier,
      @project, @target, @command, @commandPrefix, @pathsJson, @source, @note, @createdAt)`);
    this.listStmt = db.prepare('SELECT * FROM rules ORDER BY created_at');
    this.deleteStmt = db.prepare('DELETE FROM rules WHERE rule_id = ?');
  }

  insertRule(rule: RuleRecord): void {
    const { paths, ...rest } = rule;
    this.insertStmt.run({
      ...rest,
      project: rule.project ?? null,
      target: rule.target ?? null,
      command: rule.command ?? null,
      commandPrefix: rule.commandPrefix ?? null,
      pathsJson: paths ? JSON.stringify(paths) : null,
      note: rule.note ?? null,
      createdAt: Date.parse(rule.createdAt),
    });
  }

  listRules(): RuleRecord[] {
    return (this.listStmt.all() as Raw[]).map((r) => ({
      ruleId: r.rule_id as string,
      action: r.action as string,
      tier: r.tier as RuleRecord['tier'],
      project: orUndefined(r.project as string | null),
      target: orUndefined(r.target as string | null),
      command: orUndefined(r.command as string | null),
      commandPrefix: orUndefined(r.command_prefix as string | null),
      paths: parseJson<string[]>(r.paths_json as string | null),
      source: r.source as RuleRecord['source'],
      note: orUndefined(r.note as string | null),
      createdAt: new Date(r.created_at as number).toISOString(),
    }));
  }

  deleteRule(ruleId: string): boolean {
    return this.deleteStmt.run(ruleId).changes > 0;
  }
}

/** Session transcripts: what each agent did, asked and was told. */
export class TranscriptRepository {
  private readonly insertStmt;
  private readonly listStmt;
  private readonly pageStmt;
  private readonly afterStmt;
  private readonly countStmt;
  private readonly ofKindStmt;

  constructor(db: Database.Database) {
    this.ofKindStmt = db.prepare(
      'SELECT * FROM transcript WHERE session_id = ? AND kind = ? ORDER BY id',
    );
    this.insertStmt = db.prepare(
      'INSERT INTO transcript (session_id, at, kind, text, data_json) VALUES (?, ?, ?, ?, ?)',
    );
    // All three through the index transcript_by_session (session_id, id).
    this.listStmt = db.prepare('SELECT * FROM transcript WHERE session_id = ? ORDER BY id');
    this.pageStmt = db.prepare(
      `SELECT * FROM transcript WHERE session_id = @sessionId AND id < @before
       ORDER BY id DESC LIMIT @limit`,
    );
    this.afterStmt = db.prepare(
      `SELECT * FROM transcript WHERE session_id = @sessionId AND id > @after
       ORDER BY id LIMIT @limit`,
    );
    this.countStmt = db.prepare('SELECT COUNT(*) FROM transcript WHERE session_id = ?').pluck();
  }

  appendTranscript(sessionId: string, e: TranscriptEntry): void {
    this.insertStmt.run(sessionId, Date.parse(e.at), e.kind, e.text, toJson(e.data));
  }

  /** Every row of a session, oldest first: grows with the session (summary, archive). */
  listTranscript(sessionId: string): TranscriptEntry[] {
    return (this.listStmt.all(sessionId) as Raw[]).map(toEntry);
  }

  /** At most `limit` rows of a session before the row `before`, newest first, with their ids. */
  pageBefore(
    sessionId: string,
    limit: number,
    before = Number.MAX_SAFE_INTEGER,
  ): { id: number; atMs: number; entry: TranscriptEntry }[] {
    return (this.pageStmt.all({ sessionId, before, limit }) as Raw[]).map((r) => ({
      id: r.id as number,
      atMs: r.at as number,
      entry: toEntry(r),
    }));
  }

  /** At most `limit` rows of a session after the row `after`, oldest first, with their ids. */
  pageAfter(
    sessionId: string,
    limit: number,
    after = 0,
  ): { id: number; atMs: number; entry: TranscriptEntry }[] {
    return (this.afterStmt.all({ sessionId, after, limit }) as Raw[]).map((r) => ({
      id: r.id as number,
      atMs: r.at as number,
      entry: toEntry(r),
    }));
  }

  countTranscriptRows(sessionId: string): number {
    return this.countStmt.get(sessionId) as number;
  }

  /** Each row of a session of one kind, oldest first, one at a time (none held at once). */
  forEachSessionTranscript(
    sessionId: string,
    kind: string,
    fn: (e: TranscriptEntry) => void,
  ): void {
    for (const r of this.ofKindStmt.iterate(sessionId, kind) as IterableIterator<Raw>)
      fn(toEntry(r));
  }
}

function toEntry(r: Raw): TranscriptEntry {
  const data = parseJson<Record<string, unknown>>(r.data_json);
  return {
    at: new Date(r.at as number).toISOString(),
    kind: r.kind as TranscriptEntry['kind'],
    text: r.text as string,
    data,
  };
}

/** Pause and kill switches, per agent or `*` for all. */
export class ControlsRepository {
  private readonly upsertStmt;
  private readonly deleteStmt;
  private readonly listStmt;

  constructor(db: Database.Database) {
    this.upsertStmt = db.prepare(`INSERT INTO agent_controls (agent, state, reason, updated_at)
      VALUES (@agent, @state, @reason, @updatedAt)
      ON CONFLICT(agent) DO UPDATE SET state = excluded.state, reason = excluded.reason,
      updated_at = excluded.updated_at`);
    this.deleteStmt = db.prepare('DELETE FROM agent_controls WHERE agent = ?');
    this.listStmt = db.prepare('SELECT * FROM agent_controls');
  }

  setControl(row: ControlRow): void {
    this.upsertStmt.run({ ...row, reason: row.reason ?? null });
  }

  clearControl(agent: string): void {
    this.deleteStmt.run(agent);
  }

  listControls(): ControlRow[] {
    return (this.listStmt.all() as Raw[]).map((r) => ({
      agent: r.agent as string,
      state: r.state as ControlRow['state'],
      reason: orUndefined(r.reason as string | null),
      updatedAt: r.updated_at as number,
    }));
  }
}

/** The settings document, stored whole as one JSON row. */
export class SettingsRepository {
  private readonly getStmt;
  private readonly putStmt;

  constructor(db: Database.Database) {
    this.getStmt = db.prepare('SELECT value_json FROM settings WHERE id = 1');
    this.putStmt = db.prepare(`INSERT INTO settings (id, value_json, updated_at) VALUES (1, ?, ?)
      ON CONFLICT(id) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`);
  }

  loadSettings(): unknown {
    const r = this.getStmt.get() as { value_json: string } | undefined;
    return r ? JSON.parse(r.value_json) : undefined;
  }

  saveSettings(value: unknown, at: number): void {
    this.putStmt.run(JSON.stringify(value), at);
  }
}
