import { PGlite } from '@electric-sql/pglite';
import type { Sql, SqlDatabase, SqlParam } from './sql';

/**
 * The embedded PostgreSQL (PGlite) with its data in `dataDir`: one connection in this process,
 * so a one-machine trial needs no server. It runs the same SQL as a real server, NOTIFY
 * included (delivered within this process, the only one on this data).
 */
export async function openPgliteDatabase(dataDir: string): Promise<SqlDatabase> {
  const db = await PGlite.create(dataDir);
  const run = async <Row extends object>(
    on: Pick<PGlite, 'query'>,
    text: string,
    params: readonly SqlParam[] = [],
  ): Promise<Row[]> => (await on.query<Row>(text, [...params])).rows;
  return {
    kind: 'pglite',
    query: (text, params) => run(db, text, params),
    transaction: (work) =>
      db.transaction((tx) => {
        const sql: Sql = { query: (text, params) => run(tx, text, params) };
        return work(sql);
      }),
    async listen(channel, onMessage) {
      const stop = await db.listen(channel, onMessage);
      return () => stop();
    },
    close: () => db.close(),
  };
}
