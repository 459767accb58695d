import type { IncomingMessage } from 'node:http';
import type { Ed25519Pair } from '../../shared/node/hub-keys';
import type { Clock } from '../../shared/clock';
import { checkpointHubAudit, verifyHubAudit } from './hub-audit-chain';
import type { HubRoute } from './hub-person-api';
import type { SqlDatabase } from './store/sql';

/**
 * `gatehouse hub audit verify` (the hub's admin, on its host): signs the chain's head first,
 * so the answer covers the newest entries, then walks the whole chain in the database.
 */
export function auditApiRoutes(d: {
  db: SqlDatabase;
  clock: Clock;
  identity: Ed25519Pair;
  admin: (req: IncomingMessage) => Promise<void>;
}): Record<string, HubRoute> {
  return {
    'POST /api/admin/audit/verify': async (req) => {
      await d.admin(req);
      await checkpointHubAudit(d.db, d.identity, d.clock.now());
      return verifyHubAudit(d.db, d.identity.publicKey);
    },
  };
}
