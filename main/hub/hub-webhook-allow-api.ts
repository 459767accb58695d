import type { IncomingMessage } from 'node:http';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Clock } from '../../shared/clock';
import type { HubRoute } from './hub-person-api';
import { HubRefusal } from './hub-service';
import { appendAudit } from './store/audit-repo';
import type { Sql, SqlDatabase } from './store/sql';
import { readWebhookAllow, writeWebhookAllow } from './store/webhook-allow-repo';
import { WebhookAllowList } from '../../shared/node/webhook-allow-entry';
import { hostOf, WebhookAllow } from './webhook-allow';
import { z } from 'zod';

/** The admin's allow-list as stored (a list that no longer parses allows names nowhere special). */
export async function loadWebhookAllow(sql: Sql): Promise<WebhookAllow> {
  const parsed = WebhookAllowList.safeParse((await readWebhookAllow(sql)) ?? []);
  return new WebhookAllow(parsed.success ? parsed.data : []);
}

/**
 * Refuses, when a person saves it, a webhook the allow-list would refuse now: its name, and
 * the addresses it resolves to now (checked again at each send: webhook-fetch.ts). A name
 * that does not resolve is kept: it may later, and is checked then.
 */
export async function checkPersonWebhook(sql: Sql, raw: string): Promise<void> {
  const allow = await loadWebhookAllow(sql);
  const refusedName = allow.refuseUrl(raw);
  if (refusedName) throw new HubRefusal(400, `webhook refused: ${refusedName}`);
  const url = new URL(raw);
  const host = hostOf(url);
  const addresses = isIP(host)
    ? [host]
    : await lookup(host, { all: true }).then(
        (found) => found.map((a) => a.address),
        () => [],
      );
  for (const address of addresses) {
    const refused = allow.refuseAddress(url, address);
    if (refused) throw new HubRefusal(400, `webhook refused: ${refused}`);
  }
}

const Body = z.object({ entries: WebhookAllowList }).strict();

/**
 * `GET|POST /api/admin/webhook-allow` (the hub admin token): which origins, hosts, host
 * patterns and addresses a person's own webhook may name (webhook-allow.ts says how each is
 * applied). A POST replaces the list; audited.
 */
export function webhookAllowRoutes(d: {
  db: SqlDatabase;
  clock: Clock;
  admin: (req: IncomingMessage) => Promise<void>;
}): Record<string, HubRoute> {
  return {
    'GET /api/admin/webhook-allow': async (req) => {
      await d.admin(req);
      const parsed = WebhookAllowList.safeParse((await readWebhookAllow(d.db)) ?? []);
      return { entries: parsed.success ? parsed.data : [] };
    },
    'POST /api/admin/webhook-allow': async (req, body) => {
      await d.admin(req);
      const { entries } = Body.parse(body);
      const unique = [...new Set(entries)];
      const now = d.clock.now();
      await d.db.transaction(async (tx) => {
        await writeWebhookAllow(tx, unique, now);
        await appendAudit(tx, now, {
          type: 'webhook_allow.set',
          actor: 'admin',
          data: { entries: unique },
        });
      });
      return { entries: unique };
    },
  };
}
