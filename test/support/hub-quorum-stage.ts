import type { AdminClient } from '../../clients/cli/admin-client';
import type { GatehouseClient } from '../../clients/sdk/client';
import type { CliResult } from './daemon';
import { TestDaemon } from './daemon';
import { freePort } from './free-port';
import { TestHub, waitForLink } from './hub';
import { TestPostgres } from './postgres';

/** Runs a hub admin command that must succeed. */
async function mustRun(hub: TestHub, args: string[]): Promise<CliResult> {
  const r = await hub.cli(args);
  if (r.code !== 0) throw new Error(`gatehouse hub ${args.join(' ')} failed: ${r.stderr}`);
  return r;
}

/**
 * The stage of the team-quorum tests: a real PostgreSQL, a hub on it (and a second replica
 * when asked), a real daemon joined as `laptop` with an agent on a `prod` project, and the
 * team rule they all test: `deploy` on a `prod` project needs two approvals from `ops`.
 */
export class QuorumStage {
  private constructor(
    readonly pg: TestPostgres,
    readonly dbUrl: string,
    /** The hub the machine joined, on a port of its own: a test may kill it and start it again there. */
    readonly hub: TestHub,
    /** A second replica over the same database, when asked for. */
    readonly replica: TestHub | undefined,
    readonly daemon: TestDaemon,
    readonly admin: AdminClient,
    readonly agent: GatehouseClient,
    /** Each person's personal token, by name. */
    readonly tokens: Record<string, string>,
    /** What `gatehouse hub rule add` answered for the rule. */
    readonly rule: CliResult,
  ) {}

  static async start(o: {
    /** The PostgreSQL database's name. */
    database: string;
    /** People added as approvers, with personal tokens. */
    people: readonly string[];
    /** Those of them in `ops`. */
    ops: readonly string[];
    /** The agent's project folder (its last part `prod`, for the rule). */
    project: string;
    /** The machine's owner, named at invite; the rule then leaves the owner out. */
    owner?: string;
    secondReplica?: boolean;
  }): Promise<QuorumStage> {
    // What is up so far, stopped in reverse should a step fail (the test's afterAll has no stage).
    const started: (() => unknown)[] = [];
    try {
      const pg = await TestPostgres.start();
      started.push(() => pg.stop());
      const dbUrl = pg.createDatabase(o.database);
      const hub = await TestHub.start({ databaseUrl: dbUrl, port: await freePort() });
      started.push(() => hub.stop());
      const replica = o.secondReplica
        ? await TestHub.start({ databaseUrl: dbUrl, sameHubAs: hub })
        : undefined;
      if (replica) started.push(() => replica.stop());
      const tokens: Record<string, string> = {};
      for (const name of o.people) tokens[name] = await hub.person(name);
      const invited = await mustRun(hub, [
        'invite',
        '--machine',
        'laptop',
        ...(o.owner ? ['--owner', o.owner] : []),
      ]);
      const daemon = await TestDaemon.start({}, ['--no-dashboard']);
      started.push(() => daemon.stop());
      const code = invited.stdout.split('\n')[1]?.trim() ?? '';
      const joined = await daemon.cli(['hub', 'join', hub.url, code]);
      if (joined.code !== 0) throw new Error(`join failed: ${joined.stderr}`);
      await waitForLink(daemon, true);
      await mustRun(hub, ['group', 'add', 'ops']);
      for (const name of o.ops) await mustRun(hub, ['group', 'member', 'add', 'ops', name]);
      const rule = await mustRun(hub, [
        'rule',
        'add',
        '--action',
        'deploy',
        '--project',
        'prod',
        '--group',
        'ops',
        '--approvals',
        '2',
        ...(o.owner ? ['--exclude-owner'] : []),
      ]);
      const admin = await daemon.admin();
      started.push(() => admin.close());
      const agent = await daemon.agent({ agent: 'builder', project: o.project });
      return new QuorumStage(pg, dbUrl, hub, replica, daemon, admin, agent, tokens, rule);
    } catch (error) {
      for (const stop of started.reverse()) await Promise.resolve(stop()).catch(() => undefined);
      throw error;
    }
  }

  async stop(): Promise<void> {
    this.agent.close();
    this.admin.close();
    await this.daemon.stop();
    await this.hub.stop();
    await this.replica?.stop();
    this.pg.stop();
  }
}
