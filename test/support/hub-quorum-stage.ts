import type { AdminClient } from '../../clients/cli/admin-client';
import type { GatehouseClient } from '../../clients/sdk/client';
import type { CliResult, TestDaemon } from './daemon';
import type { TestHub } from './hub';
import { startPostgresHubStage, type PostgresHubStage } from './hub-postgres-stage';
import type { TestPostgres } from './postgres';

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
  readonly pg: TestPostgres;
  readonly dbUrl: string;
  /** The hub the machine joined, on a port of its own: a test may kill it and start it again there. */
  readonly hub: TestHub;
  /** A second replica over the same database, when asked for. */
  readonly replica: TestHub | undefined;
  readonly daemon: TestDaemon;
  readonly admin: AdminClient;

  private constructor(
    private readonly stage: PostgresHubStage,
    readonly agent: GatehouseClient,
    /** Each person's personal token, by name. */
    readonly tokens: Record<string, string>,
    /** What `gatehouse hub rule add` answered for the rule. */
    readonly rule: CliResult,
  ) {
    this.pg = stage.pg;
    this.dbUrl = stage.databaseUrl;
    this.hub = stage.hub;
    this.replica = stage.replica;
    this.daemon = stage.daemon;
    this.admin = stage.admin;
  }

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
    let stage: PostgresHubStage | undefined;
    try {
      const tokens: Record<string, string> = {};
      stage = await startPostgresHubStage({
        database: o.database,
        port: 'fixed',
        ...(o.secondReplica ? { secondReplica: true } : {}),
        ...(o.owner ? { owner: o.owner } : {}),
        beforeJoin: async ({ hub }) => {
          for (const name of o.people) tokens[name] = await hub.person(name);
        },
      });
      const { hub } = stage;
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
      const agent = await stage.daemon.agent({ agent: 'builder', project: o.project });
      return new QuorumStage(stage, agent, tokens, rule);
    } catch (error) {
      await stage?.stop().catch(() => undefined);
      throw error;
    }
  }

  async stop(): Promise<void> {
    this.agent.close();
    await this.stage.stop();
  }
}
