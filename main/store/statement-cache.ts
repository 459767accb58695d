import type Database from 'better-sqlite3';

/**
 * Prepared statements kept by their SQL text, for statements built at run time (a partial
 * update has one text per set of changed columns, and only a handful of sets occur). Preparing
 * cost more than running: about 70 µs of each agent hook call's work in the daemon went to
 * preparing the same `UPDATE sessions` again. Bounded, so that no caller can grow it without
 * end: past `limit` texts it starts over.
 */
export class StatementCache {
  private readonly byText = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly limit = 64,
  ) {}

  get(sql: string): Database.Statement {
    let statement = this.byText.get(sql);
    if (!statement) {
      if (this.byText.size >= this.limit) this.byText.clear();
      statement = this.db.prepare(sql);
      this.byText.set(sql, statement);
    }
    return statement;
  }
}
