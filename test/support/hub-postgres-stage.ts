import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { AdminClient } from '../../clients/cli/admin-client';
import { hubLinkFiles } from '../../shared/node/hub-files';
import { TestDaemon } from './daemon';
import { freePort } from './free-port';
import { joinHub, joinOwned, TestHub, waitForLink } from './hub';
import { TestPostgres } from './postgres';
import { Teardown } from './teardown';

/** A real PostgreSQL, a hub on it, and a real daemon joined to it as `laptop`. */
export interface PostgresHubStage {
  pg: TestPostgres;
  databaseUrl: string;
  hub: TestHub;
  /** A second replica over the same database, when asked for (the machine joined `hub`). */
  replica: TestHub | undefined;
  daemon: TestDaemon;
  /** The daemon's admin connection; a test that restarts the daemon puts its new one here. */
  admin: AdminClient;
  /** Stops it all in reverse (the admin connection here at that time, the daemon, the hub). */
  stop(): Promise<void>;
}

export interface PostgresHubStageOptions {
  /** The PostgreSQL database's name. */
  database: string;
  /** The hub on a free port chosen first (a test that stops it starts it, or a rogue, there). */
  port?: 'fixed';
  /** A second hub replica on the database, with a copy of the first one's admin token. */
  secondReplica?: boolean;
  /** The person who owns the machine, named at its invite (a person of the hub by then). */
  owner?: string;
  /** The daemon serves its own dashboard too (by default it has none). */
  dashboard?: boolean;
  /** Added to the daemon's environment. */
  daemonEnv?: NodeJS.ProcessEnv;
  /** Runs once the daemon and its admin connection are up, before the machine joins. */
  beforeJoin?: (stage: Omit<PostgresHubStage, 'stop'>) => Promise<void>;
}

/**
 * The hub integration tests' stage: a real PostgreSQL server, a hub on a new database of it, a
 * daemon (without a dashboard unless asked) with its admin connection, joined as `laptop`
 * (the link up). Whatever started before
 * a failing step is stopped again.
 */
export async function startPostgresHubStage(o: PostgresHubStageOptions): Promise<PostgresHubStage> {
  const teardown = new Teardown();
  try {
    const server = await TestPostgres.start();
    teardown.add(() => server.stop());
    const databaseUrl = server.createDatabase(o.database);
    const hub = await TestHub.start({
      databaseUrl,
      ...(o.port === 'fixed' ? { port: await freePort() } : {}),
    });
    teardown.add(() => hub.stop());
    const replica = o.secondReplica
      ? await TestHub.start({ databaseUrl, sameHubAs: hub })
      : undefined;
    if (replica) teardown.add(() => replica.stop());
    const daemon = await TestDaemon.start(o.daemonEnv ?? {}, o.dashboard ? [] : ['--no-dashboard']);
    teardown.add(() => daemon.stop());
    const up = { pg: server, databaseUrl, hub, replica, daemon, admin: await daemon.admin() };
    teardown.add(() => up.admin.close());
    await o.beforeJoin?.(up);
    if (o.owner) await joinOwned(daemon, hub, 'laptop', o.owner);
    else await joinHub(daemon, hub, 'laptop');
    return Object.assign(up, { stop: () => teardown.run() });
  } catch (error) {
    await teardown.run().catch(() => undefined);
    throw error;
  }
}

/** The hub's private signing key, read from its database as a thief of the database would. */
export async function readHubKey(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ private_key: string }>('SELECT private_key FROM hub_identity'))
      .rows[0]!.private_key;
  } finally {
    await client.end();
  }
}

/** The id the hub gave the daemon's machine at join, from the machine's link file. */
export function joinedMachineId(daemon: TestDaemon): string {
  return (JSON.parse(readFileSync(hubLinkFiles(daemon.home).link, 'utf8')) as { machineId: string })
    .machineId;
}

/** What a rogue at the hub's address needs, once the real hub is gone. */
export interface HubTakenAway {
  /** The real hub's private key, read from its database. */
  hubKeyPem: string;
  /** The joined machine's id. */
  machineId: string;
  /** The hub's port, free again: a RogueHub listens there. */
  port: number;
}

/**
 * For the attacks on the link: reads the real hub key and the machine's id, then kills the
 * hub and waits until the machine sees its link down, so a RogueHub can take the port.
 */
export async function takeHubAway(
  stage: Pick<PostgresHubStage, 'databaseUrl' | 'hub' | 'daemon'>,
): Promise<HubTakenAway> {
  const machineId = joinedMachineId(stage.daemon);
  const hubKeyPem = await readHubKey(stage.databaseUrl);
  const port = Number(new URL(stage.hub.url).port);
  await stage.hub.signal('SIGKILL');
  await waitForLink(stage.daemon, false);
  return { hubKeyPem, machineId, port };
}
