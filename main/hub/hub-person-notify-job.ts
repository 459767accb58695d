import type { Clock } from '../../shared/clock';
import type { Ed25519Pair } from '../../shared/node/hub-keys';
import {
  PersonNotifyPrefs,
  type PersonNotifyChannel,
} from '../../shared/protocol/hub-person-notify';
import { channelsOf, HubNotifyConfig, outgoing } from './hub-notify-job';
import { queueDesktopNotices, REMINDER_PREFIX as REMINDER } from './hub-desktop-notices';
import { loadWebhookAllow } from './hub-webhook-allow-api';
import { appendAudit } from './store/audit-repo';
import { allowListFetch } from './webhook-fetch';
import { readNotifyConfig } from './store/notify-repo';
import { claimForPerson, listPersonNotify } from './store/person-notify-repo';
import type { HubRequest } from './store/requests-repo';
import type { SqlDatabase } from './store/sql';

/** The advisory lock of the per-person round: one replica sends each round. */
export const PERSON_NOTIFY_LOCK = 7_230_023_007;
/** How many messages of each kind one round claims per person. */
const ROUND_LIMIT = 50;

interface Message {
  person: string;
  kind: 'new' | 'reminder';
  /** Their own channel among the hub's; none when they chose only desktop notices. */
  channel: PersonNotifyChannel | undefined;
  request: HubRequest;
  /** The machines of theirs the desktop notice went to (queued with the claim). */
  desktop: string[];
}

/**
 * The hub admin's channel of that kind with the person's own address in it (their topic,
 * their mail address, their webhook and its key); none when the admin has not set that
 * channel up, so a person can only choose among the hub's channels.
 */
export function personConfig(config: HubNotifyConfig, c: PersonNotifyChannel): HubNotifyConfig {
  switch (c.kind) {
    case 'ntfy':
      return config.ntfy?.enabled ? { ntfy: { ...config.ntfy, topic: c.topic } } : {};
    case 'email':
      return config.email?.enabled ? { email: { ...config.email, to: c.to } } : {};
    case 'webhook':
      return config.webhook?.enabled
        ? { webhook: { ...config.webhook, url: c.url, secret: c.secret } }
        : {};
  }
}

/**
 * One round: under the advisory lock (another replica holding it skips the round), claims for
 * each person who chose a channel the requests that started waiting since they chose it
 * (unless they want reminders only) and those still waiting after their reminder delay, each
 * once per request and person, then sends them. Claimed before sent, as the team round: a
 * replica killed between the two loses that message, never doubles it. Returns what it sent.
 */
export async function runPersonNotifyRound(d: {
  db: SqlDatabase;
  clock: Clock;
  identity: Ed25519Pair;
  publicUrl: string;
}): Promise<{ ran: boolean; sent: number }> {
  const now = d.clock.now();
  const claimed = await d.db.transaction(async (tx) => {
    const [lock] = await tx.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1) AS locked',
      [PERSON_NOTIFY_LOCK],
    );
    if (!lock?.locked) return undefined;
    const parsed = HubNotifyConfig.safeParse((await readNotifyConfig(tx)) ?? {});
    const config = parsed.success ? parsed.data : {};
    const messages: Message[] = [];
    for (const person of await listPersonNotify(tx)) {
      const prefs = PersonNotifyPrefs.safeParse(person.prefs);
      if (!prefs.success) continue;
      const set = prefs.data.channel;
      const channel = set && Object.keys(personConfig(config, set)).length ? set : undefined;
      if (!channel && !prefs.data.desktop) continue;
      const claim = (kind: 'new' | 'reminder', window: { from?: number; to?: number }) =>
        claimForPerson(tx, { personId: person.personId, kind, now, limit: ROUND_LIMIT, ...window });
      const add = async (kind: 'new' | 'reminder', requests: HubRequest[]) => {
        for (const request of requests) {
          // Queued in this transaction: sent only if the claim commits, so once.
          const desktop = prefs.data.desktop
            ? await queueDesktopNotices(tx, d, person, request, kind, REMINDER[kind])
            : [];
          messages.push({ person: person.name, kind, channel, request, desktop });
        }
      };
      if (prefs.data.newRequests) await add('new', await claim('new', { from: person.updatedAt }));
      const after = prefs.data.remindAfterMinutes;
      if (after !== undefined)
        await add('reminder', await claim('reminder', { to: now - after * 60_000 }));
    }
    return { config, messages };
  });
  if (!claimed) return { ran: false, sent: 0 };
  let sent = 0;
  // A person's webhook goes only where the admin's allow-list lets it, checked as it connects.
  const webhookFetch = allowListFetch(() => loadWebhookAllow(d.db));
  for (const m of claimed.messages) {
    const channels = m.channel
      ? channelsOf(personConfig(claimed.config, m.channel), { ...d, webhookFetch }, m.request)
      : [];
    const message = outgoing(m.request, d);
    message.title = `${REMINDER[m.kind]}${message.title}`;
    const results = await Promise.allSettled(channels.map((c) => c.send(message)));
    const failed = results.flatMap((r, i) =>
      r.status === 'rejected' ? [`${channels[i]!.id}: ${String(r.reason)}`] : [],
    );
    if ((channels.length > 0 && failed.length < channels.length) || m.desktop.length > 0) sent++;
    await appendAudit(d.db, d.clock.now(), {
      type: m.kind === 'reminder' ? 'notification.reminded' : 'notification.sent',
      actor: m.person,
      machineId: m.request.machineId,
      requestId: m.request.requestId,
      data: {
        person: m.person,
        channels: [...channels.map((c) => c.id), ...(m.desktop.length ? ['desktop'] : [])],
        ...(m.desktop.length ? { desktop: m.desktop } : {}),
        ...(failed.length ? { failed } : {}),
      },
    }).catch(() => undefined);
  }
  return { ran: true, sent };
}

/** Runs a round every `everyMs` until stopped; a failed round waits for the next. */
export function startPersonNotifyJob(
  d: Parameters<typeof runPersonNotifyRound>[0],
  everyMs = 5_000,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runPersonNotifyRound(d)
      .catch((e: unknown) => console.error('gatehouse hub: person notify round failed:', e))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
