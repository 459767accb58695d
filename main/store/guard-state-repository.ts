import type Database from 'better-sqlite3';
import type {
  GuardStateStore,
  SpendFilter,
  SpendGroup,
  SpendRow,
  SpendTotal,
} from '../engine/guards/guard-state-store';
import { StatementCache } from './statement-cache';

/** Ledger columns a filter or a grouping may name; never built from user text. */
const FILTER_COLUMNS: Record<keyof SpendFilter, string> = {
  sessionId: 'session_id = ?',
  agent: 'agent = ?',
  phase: 'phase = ?',
  day: 'day = ?',
  sinceDay: 'day >= ?',
};
const GROUP_COLUMNS: Record<SpendGroup, string> = {
  model: 'model',
  agent: 'agent',
  day: 'day',
  phase: 'phase',
  session: 'session_id',
};

/**
 * The guards' {@link GuardStateStore} over better-sqlite3 (tables of migration 002). All
 * calls are synchronous so that they join the engine's open transaction.
 */
export class GuardStateRepository implements GuardStateStore {
  private readonly load: Database.Statement<[string], { value_json: string }>;
  private readonly save: Database.Statement<[string, string, number]>;
  private readonly remove: Database.Statement<[string]>;
  private readonly list: Database.Statement<[string, string], { key: string; value_json: string }>;
  private readonly append: Database.Statement<Record<string, unknown>>;
  /** The spend sums' statements, one per filter shape (and grouping). */
  private readonly sums: StatementCache;

  constructor(
    db: Database.Database,
    private readonly now: () => number = Date.now,
  ) {
    // 32 filter shapes, each alone or grouped one of 5 ways: never starts over in practice.
    this.sums = new StatementCache(db, 256);
    this.load = db.prepare('SELECT value_json FROM guard_state WHERE key = ?');
    this.save = db.prepare(
      `INSERT INTO guard_state (key, value_json, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`,
    );
    this.remove = db.prepare('DELETE FROM guard_state WHERE key = ?');
    // A range scan on the primary key: keys from `prefix` up to `prefix` + the highest code point.
    this.list = db.prepare(
      'SELECT key, value_json FROM guard_state WHERE key >= ? AND key < ? ORDER BY key',
    );
    this.append = db.prepare(
      `INSERT INTO spend_ledger (at, day, session_id, agent, project, phase, model, provider, operation,
         input_tokens, output_tokens, cost_usd, price_source)
       VALUES (@at, @day, @sessionId, @agent, @project, @phase, @model, @provider, @operation,
         @inputTokens, @outputTokens, @costUsd, @priceSource)`,
    );
  }

  loadState(key: string): unknown {
    const row = this.load.get(key);
    return row ? JSON.parse(row.value_json) : undefined;
  }

  saveState(key: string, value: unknown): void {
    this.save.run(key, JSON.stringify(value), this.now());
  }

  deleteState(key: string): void {
    this.remove.run(key);
  }

  listStates(prefix: string): { key: string; value: unknown }[] {
    return this.list
      .all(prefix, `${prefix}\u{10FFFF}`)
      .map((row) => ({ key: row.key, value: JSON.parse(row.value_json) }));
  }

  appendSpend(row: SpendRow): void {
    this.append.run({
      project: null,
      phase: null,
      provider: null,
      operation: null,
      ...stripUndefined(row),
    });
  }

  sumSpend(filter: SpendFilter): number {
    const { where, values } = whereOf(filter);
    const sum = this.sums.get<unknown[], { total: number | null }>(
      `SELECT SUM(cost_usd) AS total FROM spend_ledger${where}`,
    );
    return sum.get(...values)?.total ?? 0;
  }

  spendBy(group: SpendGroup, filter: SpendFilter): SpendTotal[] {
    const { where, values } = whereOf(filter);
    const column = GROUP_COLUMNS[group];
    return this.sums
      .get<unknown[], SpendTotal>(
        `SELECT COALESCE(${column}, '') AS key, SUM(cost_usd) AS costUsd, SUM(input_tokens) AS inputTokens,
           SUM(output_tokens) AS outputTokens, COUNT(*) AS calls
         FROM spend_ledger${where} GROUP BY ${column} ORDER BY costUsd DESC`,
      )
      .all(...values);
  }
}

function whereOf(filter: SpendFilter): { where: string; values: unknown[] } {
  const clauses: string[] = [];
  const values: unknown[] = [];
  for (const key of Object.keys(FILTER_COLUMNS) as (keyof SpendFilter)[]) {
    const value = filter[key];
    if (value === undefined) continue;
    clauses.push(FILTER_COLUMNS[key]);
    values.push(value);
  }
  const where = clauses.length ? ` WHERE ${clauses.join(' AND ')}` : '';
  return { where, values };
}

function stripUndefined<T extends object>(row: T): Partial<T> {
  return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== undefined)) as Partial<T>;
}
