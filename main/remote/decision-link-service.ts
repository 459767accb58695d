import type Database from 'better-sqlite3';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import type { AdminParsedParams, AdminResult } from '../../shared/protocol/method-map';
import type { Settings } from '../../shared/settings/index';
import { iso, type Clock } from '../../shared/clock';
import type { UnitOfWork } from '../engine/kernel/unit-of-work';
import type { Engine } from '../engine/engine';
import { DecisionLinks, PAGE_DECISIONS, ensureLinkKey } from './decision-links';
import { LinkDecider } from './link-decider';
import { engineLinkPort } from './link-engine-port';
import { linkRoutes } from './link-routes';
import { UsedNoncesRepository } from '../store/used-nonces-repository';

/** Decision links as the composition roots use them (see core.ts and daemon.ts). */
export interface DecisionLinkService {
  /** Makes links: `links.decisionLinkFor(requestId, channel)`, `links.actionLinkFor(…)`. */
  links: DecisionLinks;
  /** Redeems them: the pages, and the reply-topic path (`decider.redeemAction`). */
  decider: LinkDecider;
  /** The pages for a listener; `transport` says which one in the audit. */
  pages: (transport: 'local' | 'remote') => ReturnType<typeof linkRoutes>;
  /** The admin handler of `request.link`. */
  handlers: {
    'request.link': (p: AdminParsedParams<'request.link'>) => AdminResult<'request.link'>;
  };
}

/**
 * Builds the decision links over this process's engine and database: the key file (created
 * on first use), the nonce table, the link builder and the decider.
 */
export function createDecisionLinkService(o: {
  home: string;
  db: Database.Database;
  engine: Engine;
  work: UnitOfWork;
  clock: Clock;
  settings: () => Settings;
  /** The local dashboard's URL when it is serving (a secret fragment is dropped). */
  dashboardUrl: () => string | undefined;
}): DecisionLinkService {
  const key = ensureLinkKey(o.home);
  const now = () => o.clock.now();
  const links = new DecisionLinks({
    key,
    now,
    settings: () => o.settings().dashboard,
    localBaseUrl: () => {
      const url = o.dashboardUrl();
      return url ? `${new URL(url).origin}/` : undefined;
    },
  });
  const decider = new LinkDecider({
    links,
    engine: engineLinkPort(o.engine, o.work, o.clock),
    nonces: new UsedNoncesRepository(o.db),
    key,
  });
  return {
    links,
    decider,
    pages: (transport) => linkRoutes({ decider, transport, now }),
    handlers: {
      'request.link': (p) => {
        // Throws not-found for an unknown id.
        o.engine.admin.call('request.get', { requestId: p.requestId });
        if (!links.baseUrl())
          throw new GatehouseError(
            ErrorCode.InvalidParams,
            'nothing here serves decision links: run the headless dashboard, or set dashboard.remote.enabled and dashboard.remote.publicUrl',
          );
        const link = links.issue(p.requestId, p.channel, PAGE_DECISIONS);
        return { url: link.url, expiresAt: iso(link.expiresAt) };
      },
    },
  };
}
