import type { IncomingMessage } from 'node:http';
import type { Clock } from '../../shared/clock';
import { PersonNotifyPrefs } from '../../shared/protocol/hub-person-notify';
import { bearerOf, type HubRoute } from './hub-person-api';
import { HubRefusal, type HubService } from './hub-service';
import { checkPersonWebhook } from './hub-webhook-allow-api';
import { appendAudit } from './store/audit-repo';
import type { Person } from './store/people-repo';
import { HubNotifyConfig } from './hub-notify-job';
import { readNotifyConfig } from './store/notify-repo';
import { readPersonNotify, writePersonNotify } from './store/person-notify-repo';
import type { Sql, SqlDatabase } from './store/sql';

/** A person's own settings as stored (the defaults when none, or when they no longer parse). */
export async function readOwnNotify(db: Sql, person: Person): Promise<PersonNotifyPrefs> {
  const stored = await readPersonNotify(db, person.personId);
  const parsed = PersonNotifyPrefs.safeParse(stored?.prefs ?? {});
  return parsed.success ? parsed.data : PersonNotifyPrefs.parse({});
}

/** The kinds of channel the hub's admin turned on, among which a person chooses. */
export async function offeredChannels(db: Sql): Promise<('ntfy' | 'email' | 'webhook')[]> {
  const parsed = HubNotifyConfig.safeParse((await readNotifyConfig(db)) ?? {});
  if (!parsed.success) return [];
  return (['ntfy', 'email', 'webhook'] as const).filter((k) => parsed.data[k]?.enabled === true);
}

/** Replaces a person's own settings: validated, a webhook checked against the allow-list; audited. */
export async function setOwnNotify(
  d: { db: SqlDatabase; clock: Clock },
  who: Person,
  body: unknown,
): Promise<PersonNotifyPrefs> {
  const prefs = PersonNotifyPrefs.parse(body);
  if (prefs.channel?.kind === 'webhook') await checkPersonWebhook(d.db, prefs.channel.url);
  const now = d.clock.now();
  await d.db.transaction(async (tx) => {
    await writePersonNotify(tx, who.personId, prefs, now);
    await appendAudit(tx, now, {
      type: 'person.notify_set',
      actor: who.name,
      data: {
        channel: prefs.channel?.kind ?? null,
        remindAfterMinutes: prefs.remindAfterMinutes ?? null,
        desktop: prefs.desktop,
      },
    });
  });
  return prefs;
}

/**
 * A person's own notification settings, with their personal token: `GET /api/me/notify`
 * reads them, `POST /api/me/notify` replaces them (validated; audited). Only who may decide
 * sets them: the hub notifies approvers and admins. The team dashboard's `notify.get` and
 * `notify.set` do the same for a signed-in browser (hub-web-methods.ts).
 */
export function personNotifyRoutes(d: {
  db: SqlDatabase;
  hub: HubService;
  clock: Clock;
}): Record<string, HubRoute> {
  async function decider(req: IncomingMessage): Promise<Person> {
    const token = bearerOf(req);
    const who = token ? await d.hub.personByToken(token) : undefined;
    if (!who) throw new HubRefusal(401, 'a personal token is required (gatehouse hub login URL)');
    if (who.role === 'viewer')
      throw new HubRefusal(403, `${who.name} is a viewer: the hub notifies who may decide`);
    return who;
  }
  return {
    'GET /api/me/notify': async (req) => ({ prefs: await readOwnNotify(d.db, await decider(req)) }),
    'POST /api/me/notify': async (req, body) => ({
      prefs: await setOwnNotify(d, await decider(req), body),
    }),
  };
}
