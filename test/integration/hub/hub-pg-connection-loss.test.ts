import { describe, expect, it } from 'vitest';
import { hubDatabases } from '../../support/hub-databases';

/**
 * A PostgreSQL server that ends a connection while a transaction holds it (a restart, a
 * failover, an admin's pg_terminate_backend): the transaction fails and the hub goes on. A
 * client checked out of node-postgres's pool has no error listener of the pool's, and the
 * 'error' it emits would otherwise be uncaught and end the replica (vitest fails a test on an
 * uncaught error too).
 */
describe('a hub database connection ended mid-transaction', () => {
  const dbs = hubDatabases();

  it('fails that transaction, and the next one runs on a new connection', async () => {
    const db = await dbs.fresh('postgres');
    const ended = db.transaction(async (tx) => {
      const [mine] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      // From another connection, while this transaction waits on the hub's own work.
      await db.query('SELECT pg_terminate_backend($1)', [mine!.pid]);
      await new Promise((r) => setTimeout(r, 300));
      await tx.query('SELECT 1');
    });
    await expect(ended).rejects.toThrow();
    // The pool gave the broken connection up: every later transaction works.
    for (let i = 0; i < 12; i++)
      expect(await db.transaction((tx) => tx.query<{ one: number }>('SELECT 1 AS one'))).toEqual([
        { one: 1 },
      ]);
  }, 60_000);
});
