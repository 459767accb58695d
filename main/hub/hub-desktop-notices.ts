import type { Clock } from '../../shared/clock';
import { TEAM_WAITING_TITLE_MAX, type HubToMachine } from '../../shared/hub-protocol';
import { rankedUrgency } from '../../shared/queue-order';
import type { Ed25519Pair } from '../../shared/node/hub-keys';
import { HUB_CHANNEL, type HubNotice } from './hub-events';
import { hubRequestLinks } from './hub-links';
import { newRequestItem } from '../notify/compose';
import { ruleFor, whyNot } from './quorum';
import { getMachine, machinesOwnedBy } from './store/machines-repo';
import { PersonNotifyPrefs } from '../../shared/protocol/hub-person-notify';
import {
  missedByMachine,
  queueDesktopNotice,
  type DesktopNoticeKind,
} from './store/desktop-notices-repo';
import { personByName, type Person } from './store/people-repo';
import { readPersonNotify } from './store/person-notify-repo';
import type { HubRequest } from './store/requests-repo';
import type { Sql } from './store/sql';

/** What a machine is sent: the request, its machine, its title and the hub's page of it. */
export type TeamWaitingMessage = Omit<Extract<HubToMachine, { t: 'team_waiting' }>, 't'>;

/**
 * Queues, in the caller's transaction (the per-person round's claim), the desktop notice of a
 * waiting request for each machine the person owns other than the request's own, when they
 * may decide it (a team rule may name other groups, or leave the owner out): a row each
 * (desktop_notices) and a NOTIFY each, both only if the claim commits. The replica holding
 * that machine's link marks the row sent and sends it to a machine that accepts
 * `team_waiting`; a machine offline then gets it when it links, on any replica, while the
 * request still waits (machine-links.ts): once per machine, request and kind either way.
 * Returns the machines' names.
 */
export async function queueDesktopNotices(
  tx: Sql,
  d: { identity: Ed25519Pair; publicUrl: string; clock: Clock },
  person: Person,
  request: HubRequest,
  kind: DesktopNoticeKind,
  prefix = '',
  /** Only this machine of theirs (one that links after the round: queueMissedDesktopNotices). */
  only?: string,
): Promise<string[]> {
  const machines = (await machinesOwnedBy(tx, person.name)).filter(
    (m) => m.machineId !== request.machineId && (only === undefined || m.machineId === only),
  );
  if (machines.length === 0) return [];
  // Under a team rule, only who may decide the request is shown it.
  const governed = await ruleFor(tx, request);
  const filedOn = await getMachine(tx, request.machineId);
  if (governed && filedOn && (await whyNot(tx, person, governed, filedOn))) return [];
  const link = hubRequestLinks(d.identity, d.publicUrl, request.machineName, request.requestId);
  const title = `${prefix}${newRequestItem(request.record, () => link.page).title}`;
  const message: TeamWaitingMessage = {
    requestId: request.requestId,
    machine: request.machineName,
    title: title.slice(0, TEAM_WAITING_TITLE_MAX),
    // As the hub ranks it (inferred as on the machine), for the desktop's minimum urgency.
    urgency: rankedUrgency(request.record, d.clock.now()),
    link: link.page,
  };
  const now = d.clock.now();
  for (const m of machines) {
    const key = { toMachineId: m.machineId, machineId: request.machineId, kind };
    await queueDesktopNotice(tx, { ...key, requestId: request.requestId, notice: message, now });
    const notice: HubNotice = {
      kind: 'team_waiting',
      machineId: m.machineId,
      ...message,
      filedOn: request.machineId,
      reminder: kind === 'reminder',
    };
    await tx.query('SELECT pg_notify($1, $2)', [HUB_CHANNEL, JSON.stringify(notice)]);
  }
  return machines.map((m) => m.name);
}

/** What a reminder's title starts with (the first notice has no prefix). */
export const REMINDER_PREFIX = { new: '', reminder: 'Reminder, still waiting: ' } as const;

/**
 * For a machine that links and whose owner chose desktop notices: queues, in `tx`, the notices
 * of the requests still waiting that the owner was told of before this machine was theirs (it
 * joined after the round), as the round would have (the newest kind; a team rule checked the
 * same way). The link then sends them with the ones it missed while offline.
 */
export async function queueMissedDesktopNotices(
  tx: Sql,
  d: { identity: Ed25519Pair; publicUrl: string; clock: Clock },
  machine: { machineId: string; owner?: string },
): Promise<void> {
  if (!machine.owner) return;
  const person = await personByName(tx, machine.owner);
  if (!person || person.role === 'viewer') return;
  const prefs = PersonNotifyPrefs.safeParse((await readPersonNotify(tx, person.personId))?.prefs);
  if (!prefs.success || !prefs.data.desktop) return;
  const missed = await missedByMachine(tx, person.personId, machine.machineId, d.clock.now());
  for (const request of missed) {
    const kind = request.reminded ? 'reminder' : 'new';
    await queueDesktopNotices(
      tx,
      d,
      person,
      request,
      kind,
      REMINDER_PREFIX[kind],
      machine.machineId,
    );
  }
}
