import type Database from 'better-sqlite3';

/**
 * Prepared statements kept by their SQL text, for statements built at run time (a partial
 * update has one text per set of changed columns, and only a handful of sets occur). Preparing
 * cost more than running: about 70 µs of each agent hook call's work in the daemon went to
 * preparing the same `UPDATE sessions` again. Bounded, so that no caller can grow it without
 * end: past `limit` texts it starts over. Used for partial updates and for the guards' spend
 * sums, whose filters and groupings make a handful of texts.
 */
export class StatementCache {
  private readonly byText = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly limit = 64,
  ) {}

  /** The statement for `sql`, prepared the first time; its types as the caller declares them. */
  get<Params extends unknown[] | object = unknown[], Result = unknown>(
    sql: string,
  ): Database.Statement<Params, Result> {
    let statement = this.byText.get(sql);
    if (!statement) {
      if (this.byText.size >= this.limit) this.byText.clear();
      statement = this.db.prepare(sql);
      this.byText.set(sql, statement);
    }
    // Prepared from the caller's text: the caller knows its parameters and row shape.
    return statement as unknown as Database.Statement<Params, Result>;
  }
}
