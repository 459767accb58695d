/** A value a query takes as a parameter ($1, $2 …). */
export type SqlParam =
  string | number | boolean | null | Date | Record<string, unknown> | unknown[];

/** Runs one statement. Both drivers answer with rows as plain objects. */
export interface Sql {
  query<Row extends object>(text: string, params?: readonly SqlParam[]): Promise<Row[]>;
}

/**
 * The hub's database, on either driver: a real PostgreSQL server (`pg`) or the embedded one
 * (PGlite). The same SQL runs on both; what differs (pools, one in-process connection) stays
 * behind this interface.
 */
export interface SqlDatabase extends Sql {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * Calls `onMessage` with each NOTIFY payload on `channel` (from any process on the same
   * database). Resolves once listening; the result stops it. On a server, a lost connection
   * is re-made, and `onReconnect` runs then (notifications sent meanwhile are lost: the
   * caller reloads what it missed).
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onReconnect?: () => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** A database number (int8 comes back as a string from `pg`, a number from PGlite). */
export const num = (v: unknown): number => Number(v);
