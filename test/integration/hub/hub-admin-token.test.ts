import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestHub } from '../../support/hub';
import { TestPostgres } from '../../support/postgres';

/**
 * The hub's admin token is one for the hub, kept in PostgreSQL by its hash: replicas started
 * together on an empty database agree on one, the host that made it holds it (0600), and
 * every replica accepts it.
 */
describe("the hub's one admin token", () => {
  let pgServer: TestPostgres;
  let url: string;
  let a: TestHub;
  let b: TestHub;
  let stale: TestHub | undefined;
  /** The replica whose host made (and holds) the token. */
  const holder = (): TestHub => (existsSync(a.adminTokenFile) ? a : b);

  beforeAll(async () => {
    pgServer = await TestPostgres.start();
    url = pgServer.createDatabase('admin_token');
    [a, b] = await Promise.all([
      TestHub.start({ databaseUrl: url }),
      TestHub.start({ databaseUrl: url }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await stale?.stop();
    await a?.stop();
    await b?.stop();
    pgServer?.stop();
  });

  it('is made once, kept by hash, held by one host, and accepted by every replica', async () => {
    const holders = [a, b].filter((h) => existsSync(h.adminTokenFile));
    expect(holders).toHaveLength(1);
    const holder = holders[0]!;
    const other = holder === a ? b : a;
    expect(holder.output).toContain("made the hub's admin token");
    expect(other.output).toContain("this host has no copy of the hub's admin token");
    expect(statSync(holder.adminTokenFile).mode & 0o777).toBe(0o600);
    const token = readFileSync(holder.adminTokenFile, 'utf8').trim();
    // Both replicas accept it: an invite made through the other one.
    for (const hub of [a, b])
      expect(
        (await hub.api('POST', '/api/admin/invite', { token, body: { machine: 'laptop' } })).status,
      ).toBe(200);
    // The other host's admin commands say what to do.
    const without = await other.cli(['machines']);
    expect(without.code).toBe(4);
    expect(without.stderr).toContain('no hub admin token');
    // The database keeps the hash only.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ token_hash: string }>(
        'SELECT token_hash FROM hub_admin_token',
      );
      expect(rows).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex') }]);
      const dump = await client.query(
        "SELECT * FROM hub_admin_token WHERE token_hash LIKE '%' || $1 || '%'",
        [token],
      );
      expect(dump.rows).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it('a replica with another token file warns at start, and that token is refused everywhere', async () => {
    stale = await TestHub.start({ databaseUrl: url, sameHubAs: holder() });
    // Its host's file replaced by a token of its own (the per-host token of earlier versions).
    writeFileSync(stale.adminTokenFile, `${'x'.repeat(43)}\n`, { mode: 0o600 });
    await stale.signal('SIGTERM');
    await stale.launch();
    expect(stale.output).toContain('is not the hub');
    for (const hub of [a, b, stale])
      expect((await hub.api('GET', '/api/admin/machines', { token: 'x'.repeat(43) })).status).toBe(
        401,
      );
    // The copy of the real token works on it.
    const real = readFileSync(holder().adminTokenFile, 'utf8').trim();
    expect((await stale.api('GET', '/api/admin/machines', { token: real })).status).toBe(200);
  });
});
