import type { Migration } from './migration';

/**
 * State of the runtime guardrails: one JSON document per key (breakers, per-session guard
 * state, automation ladders) and the spend ledger that budgets are summed from. `day` is
 * the local calendar day a row counts towards, so daily budgets reset at local midnight.
 */
export const migration002: Migration = {
  version: 2,
  name: 'guards',
  up(db) {
    db.exec(`
      CREATE TABLE guard_state (
        key        TEXT PRIMARY KEY,
        value_json TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE spend_ledger (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        at            INTEGER NOT NULL,
        day           TEXT NOT NULL,
        session_id    TEXT NOT NULL,
        agent         TEXT NOT NULL,
        project       TEXT,
        phase         TEXT,
        model         TEXT NOT NULL,
        provider      TEXT,
        operation     TEXT,
        input_tokens  INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        cost_usd      REAL NOT NULL,
        price_source  TEXT NOT NULL
      );
      CREATE INDEX spend_by_day ON spend_ledger(day);
      CREATE INDEX spend_by_session ON spend_ledger(session_id, phase);
      CREATE INDEX spend_by_agent_day ON spend_ledger(agent, day);
    `);
  },
};
