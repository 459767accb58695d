import type { Clock } from '../../shared/clock';
import { TEAM_WAITING_TITLE_MAX } from '../../shared/hub-protocol';
import { rankedUrgency } from '../../shared/queue-order';
import type { Ed25519Pair } from '../../shared/node/hub-keys';
import { HUB_CHANNEL, type HubNotice } from './hub-events';
import { hubRequestLinks } from './hub-links';
import { newRequestItem } from '../notify/compose';
import { ruleFor, whyNot } from './quorum';
import { getMachine, machinesOwnedBy } from './store/machines-repo';
import type { Person } from './store/people-repo';
import type { HubRequest } from './store/requests-repo';
import type { Sql } from './store/sql';

/**
 * Queues, in the caller's transaction (the per-person round's claim), the desktop notice of a
 * waiting request for each machine the person owns other than the request's own, when they
 * may decide it (a team rule may name other groups, or leave the owner out): one NOTIFY
 * each, sent only if the claim commits, and delivered by whichever replica holds that
 * machine's link to a machine that accepts `team_waiting`. Returns the machines' names.
 */
export async function queueDesktopNotices(
  tx: Sql,
  d: { identity: Ed25519Pair; publicUrl: string; clock: Clock },
  person: Person,
  request: HubRequest,
  prefix = '',
): Promise<string[]> {
  const machines = (await machinesOwnedBy(tx, person.name)).filter(
    (m) => m.machineId !== request.machineId,
  );
  if (machines.length === 0) return [];
  // Under a team rule, only who may decide the request is shown it.
  const governed = await ruleFor(tx, request);
  const filedOn = await getMachine(tx, request.machineId);
  if (governed && filedOn && (await whyNot(tx, person, governed, filedOn))) return [];
  const link = hubRequestLinks(d.identity, d.publicUrl, request.machineName, request.requestId);
  const title = `${prefix}${newRequestItem(request.record, () => link.page).title}`;
  for (const m of machines) {
    const notice: HubNotice = {
      kind: 'team_waiting',
      machineId: m.machineId,
      requestId: request.requestId,
      machine: request.machineName,
      title: title.slice(0, TEAM_WAITING_TITLE_MAX),
      // As the hub ranks it (inferred as on the machine), for the desktop's minimum urgency.
      urgency: rankedUrgency(request.record, d.clock.now()),
      link: link.page,
    };
    await tx.query('SELECT pg_notify($1, $2)', [HUB_CHANNEL, JSON.stringify(notice)]);
  }
  return machines.map((m) => m.name);
}
