import { afterAll, beforeAll } from 'vitest';
import type { GatehouseClient } from '../../clients/sdk/client';
import {
  startPostgresHubStage,
  takeHubAway,
  type HubTakenAway,
  type PostgresHubStage,
} from './hub-postgres-stage';

/** A joined machine with an agent, its hub gone, and what a rogue in its place needs. */
export interface LinkAttackStage extends PostgresHubStage, HubTakenAway {
  agent: GatehouseClient;
}

/**
 * For the enclosing describe block, the attacker's view of the hub link: a real hub on
 * PostgreSQL, a real daemon joined to it with an agent connected, then the real hub key read
 * from the database and the hub killed (the link down), so that a test's RogueHub answers at
 * its port with that key. Started before the first test, always stopped after the last; read
 * its fields inside tests (they are set then).
 */
export function linkAttackStage(o: {
  database: string;
  agent: string;
  project: string;
}): Readonly<LinkAttackStage> {
  const stage: Partial<LinkAttackStage> = {};
  beforeAll(async () => {
    const up = await startPostgresHubStage({ database: o.database, port: 'fixed' });
    Object.assign(stage, up);
    const agent = await up.daemon.agent({ agent: o.agent, project: o.project });
    Object.assign(stage, { agent }, await takeHubAway(up));
  }, 120_000);
  afterAll(async () => {
    stage.agent?.close();
    await stage.stop?.();
  });
  return stage as LinkAttackStage;
}
