import pg from 'pg';
import type { Sql, SqlDatabase, SqlParam } from './sql';

/** How long a lost LISTEN connection waits before it is made again, at most. */
const MAX_RELISTEN_DELAY_MS = 5_000;

/**
 * A real PostgreSQL server through `pg`: a pool for queries and transactions, and one
 * dedicated connection per `listen` (LISTEN belongs to a session, so it cannot share the
 * pool's), made again when the server restarts.
 */
export async function openPgDatabase(url: string): Promise<SqlDatabase> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
  // A server restart ends idle connections: the pool drops them; nothing to do here but not crash.
  pool.on('error', () => undefined);
  // Fails now, with the server's own message, when the database cannot be reached.
  const probe = await pool.connect().catch(async (error: unknown) => {
    await pool.end().catch(() => undefined);
    throw error;
  });
  probe.release();
  const run = async <Row extends object>(
    on: Pick<pg.Pool, 'query'> | pg.PoolClient,
    text: string,
    params: readonly SqlParam[] = [],
  ): Promise<Row[]> => (await on.query(text, [...params])).rows as Row[];
  const listeners = new Set<() => Promise<void>>();
  let closed = false;
  return {
    kind: 'postgres',
    query: (text, params) => run(pool, text, params),
    async transaction(work) {
      const client = await pool.connect();
      // A checked-out client has no error listener of the pool's: the server ending its
      // connection mid-transaction (a restart, a failover, pg_terminate_backend) would emit an
      // uncaught 'error' and end the hub. Its queries fail instead, and the pool drops it.
      let lost: Error | undefined;
      const onLost = (error: Error) => (lost ??= error);
      client.on('error', onLost);
      try {
        await client.query('BEGIN');
        const sql: Sql = { query: (text, params) => run(client, text, params) };
        const result = await work(sql);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        if (!lost) await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.removeListener('error', onLost);
        client.release(lost);
      }
    },
    async listen(channel, onMessage, onReconnect) {
      let client: pg.Client | undefined;
      let stopped = false;
      let delay = 100;
      const connect = async (): Promise<void> => {
        const c = new pg.Client({ connectionString: url });
        c.on('notification', (n) => {
          if (n.channel === channel) onMessage(n.payload ?? '');
        });
        c.on('error', () => undefined);
        c.on('end', () => {
          // Only the live connection's end starts a reconnect: a failed attempt ends too,
          // and its retry is already scheduled (one chain of attempts, never two clients).
          if (stopped || closed || c !== client) return;
          client = undefined;
          // The server went away: listen again once it is back, then let the caller catch up.
          setTimeout(() => void again(), delay);
          delay = Math.min(delay * 2, MAX_RELISTEN_DELAY_MS);
        });
        try {
          await c.connect();
          await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        } catch (error) {
          await c.end().catch(() => undefined);
          throw error;
        }
        if (stopped || closed) {
          await c.end().catch(() => undefined);
          return;
        }
        client = c;
        delay = 100;
      };
      const again = async (): Promise<void> => {
        if (stopped || closed) return;
        try {
          await connect();
          onReconnect?.();
        } catch {
          setTimeout(() => void again(), delay);
          delay = Math.min(delay * 2, MAX_RELISTEN_DELAY_MS);
        }
      };
      await connect();
      const stop = async (): Promise<void> => {
        stopped = true;
        listeners.delete(stop);
        await client?.end().catch(() => undefined);
      };
      listeners.add(stop);
      return stop;
    },
    async close() {
      closed = true;
      for (const stop of [...listeners]) await stop();
      await pool.end();
    },
  };
}
