import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../../shared/clock';
import { urgencyAtLeast } from '../../shared/domain';
import { rankedUrgency } from '../../shared/queue-order';
import type { Ed25519Pair } from '../../shared/node/hub-keys';
import {
  EmailChannelSettings,
  NtfyChannelSettings,
  WebhookChannelSettings,
} from '../../shared/settings/notifications';
import { newRequestItem } from '../notify/compose';
import { toOutgoing } from '../notify/digest';
import { EmailChannel } from '../notify/email-channel';
import { NtfyChannel } from '../notify/ntfy-channel';
import type { NotificationChannel } from '../notify/types';
import { WebhookChannel } from '../notify/webhook-channel';
import { hubRequestLinks } from './hub-links';
import { appendAudit } from './store/audit-repo';
import { claimUnnotified, readNotifyConfig } from './store/notify-repo';
import type { HubRequest } from './store/requests-repo';
import type { SqlDatabase } from './store/sql';

/** The channels the hub notifies approvers through: the machine's own settings schemas. */
export const HubNotifyConfig = z.object({
  webhook: WebhookChannelSettings.optional(),
  ntfy: NtfyChannelSettings.optional(),
  email: EmailChannelSettings.optional(),
});
export type HubNotifyConfig = z.infer<typeof HubNotifyConfig>;

/** The advisory lock of the notify job: one replica sends each round. */
export const NOTIFY_LOCK = 7_230_023_004;
/** How many requests one round claims. */
const ROUND_LIMIT = 50;

/**
 * One round: under the advisory lock (another replica holding it skips the round), claims the
 * waiting requests nobody was told of yet, then sends each through the channels the hub
 * admin set, with links to the team dashboard signed by the hub. A request is claimed before
 * it is sent, so two replicas never send it twice; a replica killed between the two loses
 * that notification (the request still shows on the dashboard). Returns what it sent.
 */
export async function runNotifyRound(d: {
  db: SqlDatabase;
  clock: Clock;
  identity: Ed25519Pair;
  publicUrl: string;
}): Promise<{ ran: boolean; sent: number }> {
  const claimed = await d.db.transaction(async (tx) => {
    const [lock] = await tx.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1) AS locked',
      [NOTIFY_LOCK],
    );
    if (!lock?.locked) return undefined;
    const parsed = HubNotifyConfig.safeParse((await readNotifyConfig(tx)) ?? {});
    const config = parsed.success ? parsed.data : {};
    if (!channelsOf(config, d, undefined).length) return { config, requests: [] };
    return { config, requests: await claimUnnotified(tx, d.clock.now(), ROUND_LIMIT) };
  });
  if (!claimed) return { ran: false, sent: 0 };
  let sent = 0;
  for (const request of claimed.requests) {
    const channels = channelsOf(claimed.config, d, request);
    const results = await Promise.allSettled(channels.map((c) => c.send(outgoing(request, d))));
    const failed = results.flatMap((r, i) =>
      r.status === 'rejected' ? [`${channels[i]!.id}: ${String(r.reason)}`] : [],
    );
    if (failed.length < channels.length) sent++;
    await appendAudit(d.db, d.clock.now(), {
      type: 'notification.sent',
      machineId: request.machineId,
      requestId: request.requestId,
      data: {
        channels: channels.map((c) => c.id),
        ...(failed.length ? { failed } : {}),
      },
    }).catch(() => undefined);
  }
  return { ran: true, sent };
}

/** The notification of one waiting request (`prefix` before its title: an escalation's). */
export function outgoing(
  r: HubRequest,
  d: { identity: Ed25519Pair; publicUrl: string },
  prefix = '',
) {
  const links = hubRequestLinks(d.identity, d.publicUrl, r.machineName, r.requestId);
  const item = newRequestItem(r.record, () => links.page);
  // The hint names the local CLI; on the hub the same commands take --hub.
  const viaHub = (text: string) =>
    text
      .replaceAll('gatehouse approve ', `gatehouse --hub ${d.publicUrl} approve `)
      .replaceAll('gatehouse deny ', `gatehouse --hub ${d.publicUrl} deny `);
  return toOutgoing(randomUUID(), [
    {
      ...item,
      title: `${prefix}${r.machineName}: ${item.title}`,
      body: viaHub(item.body),
      ...(item.decide
        ? {
            decide: {
              ...item.decide,
              approve: viaHub(item.decide.approve),
              deny: viaHub(item.decide.deny),
            },
          }
        : {}),
    },
  ]);
}

/** The enabled channels (for this request's urgency when one is given). */
export function channelsOf(
  config: HubNotifyConfig,
  d: {
    clock: Clock;
    identity: Ed25519Pair;
    publicUrl: string;
    /** How a webhook is POSTed (a person's: through the allow-list, webhook-fetch.ts). */
    webhookFetch?: typeof fetch;
  },
  r: HubRequest | undefined,
): NotificationChannel[] {
  const fits = (c: { enabled: boolean; minUrgency: Parameters<typeof urgencyAtLeast>[1] }) =>
    c.enabled && (!r || urgencyAtLeast(rankedUrgency(r.record, d.clock.now()), c.minUrgency));
  const links = () =>
    r ? hubRequestLinks(d.identity, d.publicUrl, r.machineName, r.requestId) : undefined;
  const channels: NotificationChannel[] = [];
  const { webhook, ntfy, email } = config;
  if (webhook && fits(webhook))
    channels.push(
      new WebhookChannel({
        clock: d.clock,
        getConfig: () => webhook,
        linksFor: links,
        ...(d.webhookFetch ? { fetch: d.webhookFetch } : {}),
      }),
    );
  if (ntfy && fits(ntfy))
    channels.push(
      new NtfyChannel({
        clock: d.clock,
        getConfig: () => ntfy,
        buttonsFor: () => {
          const l = links();
          return l
            ? {
                click: l.page,
                actions: [
                  { action: 'view', label: 'Approve', url: l.approve },
                  { action: 'view', label: 'Deny', url: l.deny },
                ],
              }
            : undefined;
        },
      }),
    );
  if (email && fits(email))
    channels.push(new EmailChannel({ clock: d.clock, getConfig: () => email, linksFor: links }));
  return channels;
}

/** Runs a round every `everyMs` until stopped; a failed round waits for the next. */
export function startNotifyJob(
  d: Parameters<typeof runNotifyRound>[0],
  everyMs = 2_000,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runNotifyRound(d)
      .catch((e: unknown) => console.error('gatehouse hub: notify round failed:', e))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
