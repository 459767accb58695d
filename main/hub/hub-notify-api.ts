import type { IncomingMessage } from 'node:http';
import type { Clock } from '../../shared/clock';
import { HubRefusal } from './hub-service';
import { LinkParams, linkSignedBy } from './hub-links';
import { HubNotifyConfig } from './hub-notify-job';
import type { HubRoute } from './hub-person-api';
import { appendAudit } from './store/audit-repo';
import { readNotifyConfig, writeNotifyConfig } from './store/notify-repo';
import type { SqlDatabase } from './store/sql';

/**
 * The hub's notification settings (its admin sets the channels, as `gatehouse config set`
 * does on a machine) and the check of a decision link: whether the hub signed it.
 */
export function notifyApiRoutes(d: {
  db: SqlDatabase;
  clock: Clock;
  publicKey: string;
  admin: (req: IncomingMessage) => Promise<void>;
}): Record<string, HubRoute> {
  return {
    'GET /api/admin/notify': async (req) => {
      await d.admin(req);
      return { config: HubNotifyConfig.parse((await readNotifyConfig(d.db)) ?? {}) };
    },
    'POST /api/admin/notify': async (req, body) => {
      await d.admin(req);
      const config = HubNotifyConfig.parse(body);
      const now = d.clock.now();
      await d.db.transaction(async (tx) => {
        await writeNotifyConfig(tx, config, now);
        await appendAudit(tx, now, {
          type: 'notify.configured',
          actor: 'admin',
          data: { channels: Object.keys(config) },
        });
      });
      return { config };
    },
    'GET /api/links/check': async (req) => {
      const parsed = LinkParams.safeParse(
        Object.fromEntries(new URL(req.url ?? '/', 'http://hub').searchParams),
      );
      if (!parsed.success) throw new HubRefusal(400, 'not a decision link of this hub');
      return { signed: linkSignedBy(d.publicKey, parsed.data), ...parsed.data, sig: undefined };
    },
  };
}
