/**
 * Where the guards keep what must survive a restart: JSON state per key (breakers, session
 * guard state, the ladder) and the spend ledger. Calls are synchronous because the engine
 * runs the guards inside its SQLite transaction, so guard state and the audit entries of the
 * same call commit together. main/store/guard-state-repository.ts implements it over
 * better-sqlite3; {@link MemoryGuardStateStore} is the in-memory one for tests.
 */
export interface GuardStateStore {
  /** The stored value, or `undefined` when the key is absent. */
  loadState(key: string): unknown;
  saveState(key: string, value: unknown): void;
  deleteState(key: string): void;
  /** Every stored key starting with `prefix`, in key order. */
  listStates(prefix: string): { key: string; value: unknown }[];

  appendSpend(row: SpendRow): void;
  /** Total US dollars of the rows that match every given field. */
  sumSpend(filter: SpendFilter): number;
  /** Totals grouped by one column, largest first. */
  spendBy(group: SpendGroup, filter: SpendFilter): SpendTotal[];
}

/** One priced model call. `day` is the local calendar day (`YYYY-MM-DD`) it counts towards. */
export interface SpendRow {
  at: number;
  day: string;
  sessionId: string;
  agent: string;
  project?: string | undefined;
  phase?: string | undefined;
  model: string;
  provider?: string;
  operation?: string | undefined;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Where the price came from: `reported`, `override` or the table entry. */
  priceSource: string;
}

export interface SpendFilter {
  sessionId?: string;
  agent?: string;
  phase?: string;
  day?: string;
  /** Days from this one on (inclusive), for history views. */
  sinceDay?: string;
}

export type SpendGroup = 'model' | 'agent' | 'day' | 'phase' | 'session';

export interface SpendTotal {
  key: string;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  calls: number;
}

const matches = (row: SpendRow, f: SpendFilter): boolean =>
  (f.sessionId === undefined || row.sessionId === f.sessionId) &&
  (f.agent === undefined || row.agent === f.agent) &&
  (f.phase === undefined || row.phase === f.phase) &&
  (f.day === undefined || row.day === f.day) &&
  (f.sinceDay === undefined || row.day >= f.sinceDay);

const GROUP_FIELD: Record<SpendGroup, keyof SpendRow> = {
  model: 'model',
  agent: 'agent',
  day: 'day',
  phase: 'phase',
  session: 'sessionId',
};

/** An in-memory {@link GuardStateStore}; values are deep-copied as JSON, like the real one. */
export class MemoryGuardStateStore implements GuardStateStore {
  private readonly states = new Map<string, string>();
  readonly spend: SpendRow[] = [];

  loadState(key: string): unknown {
    const json = this.states.get(key);
    return json === undefined ? undefined : JSON.parse(json);
  }
  saveState(key: string, value: unknown): void {
    this.states.set(key, JSON.stringify(value));
  }
  deleteState(key: string): void {
    this.states.delete(key);
  }
  listStates(prefix: string): { key: string; value: unknown }[] {
    return [...this.states.keys()]
      .filter((k) => k.startsWith(prefix))
      .sort()
      .map((key) => ({ key, value: this.loadState(key) }));
  }
  appendSpend(row: SpendRow): void {
    this.spend.push({ ...row });
  }
  sumSpend(filter: SpendFilter): number {
    return this.spend.filter((r) => matches(r, filter)).reduce((sum, r) => sum + r.costUsd, 0);
  }
  spendBy(group: SpendGroup, filter: SpendFilter): SpendTotal[] {
    const totals = new Map<string, SpendTotal>();
    for (const row of this.spend) {
      if (!matches(row, filter)) continue;
      const key = String(row[GROUP_FIELD[group]] ?? '');
      const t = totals.get(key) ?? { key, costUsd: 0, inputTokens: 0, outputTokens: 0, calls: 0 };
      t.costUsd += row.costUsd;
      t.inputTokens += row.inputTokens;
      t.outputTokens += row.outputTokens;
      t.calls++;
      totals.set(key, t);
    }
    return [...totals.values()].sort((a, b) => b.costUsd - a.costUsd);
  }
}
