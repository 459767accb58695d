import type { Clock } from '../../shared/clock';
import type { Ed25519Pair } from '../../shared/node/hub-keys';
import type { Escalated } from './escalation';
import { channelsOf, HubNotifyConfig, outgoing } from './hub-notify-job';
import { appendAudit } from './store/audit-repo';
import { markPaged } from './store/escalations-repo';
import { readNotifyConfig } from './store/notify-repo';
import type { SqlDatabase } from './store/sql';

/**
 * Pages the groups requests escalated to, through the hub's notification channels (the ones
 * its admin set: webhook, ntfy, email), the title naming the group. Each escalation is marked
 * paged before it is sent, so it is paged once; the result is audited.
 */
export function escalationPager(d: {
  db: SqlDatabase;
  clock: Clock;
  identity: Ed25519Pair;
  publicUrl: string;
}) {
  return async (escalated: readonly Escalated[]): Promise<void> => {
    const parsed = HubNotifyConfig.safeParse((await readNotifyConfig(d.db)) ?? {});
    const config = parsed.success ? parsed.data : {};
    for (const e of escalated) {
      const { machineId, requestId } = e.request;
      if (!(await markPaged(d.db, machineId, requestId, d.clock.now()))) continue;
      // Every channel, whatever the request's urgency: an escalation is the page nobody answered.
      const channels = channelsOf(config, d, {
        ...e.request,
        record: { ...e.request.record, urgency: 'high' },
      });
      const message = outgoing(e.request, d, `Escalated to ${e.toGroup}: `);
      const results = await Promise.allSettled(channels.map((c) => c.send(message)));
      const failed = results.flatMap((r, i) =>
        r.status === 'rejected' ? [`${channels[i]!.id}: ${String(r.reason)}`] : [],
      );
      await appendAudit(d.db, d.clock.now(), {
        type: 'request.escalation_paged',
        machineId,
        requestId,
        data: {
          to: e.toGroup,
          rule: e.ruleId,
          channels: channels.map((c) => c.id),
          ...(failed.length ? { failed } : {}),
        },
      }).catch(() => undefined);
    }
  };
}
