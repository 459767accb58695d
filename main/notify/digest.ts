import { URGENCY_ORDER, type Urgency } from '../../shared/domain';
import { byAttention } from '../../shared/queue-order';
import type { DigestReason, NotificationItem, OutgoingNotification } from './types';

const highest = (items: readonly NotificationItem[]): Urgency =>
  items.reduce<Urgency>(
    (max, i) => (URGENCY_ORDER.indexOf(i.urgency) > URGENCY_ORDER.indexOf(max) ? i.urgency : max),
    'low',
  );

const DIGEST_LINES = 10;

/**
 * Wraps items for a channel: one item goes as it is; several become one digest whose title
 * counts them and whose body lists each title (and how to decide the requests).
 */
export function toOutgoing(
  id: string,
  items: readonly NotificationItem[],
  reason?: DigestReason,
): OutgoingNotification {
  const [first] = items;
  if (!first) throw new Error('a notification needs at least one item');
  if (items.length === 1) {
    return {
      id,
      urgency: first.urgency,
      title: first.title,
      body: first.body,
      items: [first],
      ...(reason ? { digest: reason } : {}),
      ...(first.requestId ? { requestId: first.requestId } : {}),
    };
  }
  const requests = items.filter((i) => i.requestId !== undefined);
  // What needs the person first, as the queue on every surface (shared/queue-order.ts).
  const ordered = [...items].sort((a, b) =>
    byAttention(
      { blocked: a.blocked ?? false, urgency: a.urgency, at: a.at },
      { blocked: b.blocked ?? false, urgency: b.urgency, at: b.at },
    ),
  );
  const shown = ordered.slice(0, DIGEST_LINES).map((i) => {
    const how = i.decide ? ` — ${i.decide.approve}` : '';
    return `• [${i.urgency}] ${i.title}${how}`;
  });
  if (items.length > DIGEST_LINES) shown.push(`…and ${items.length - DIGEST_LINES} more`);
  shown.push('Decide one by one: gatehouse review (or the dashboard)');
  const agents = new Set(items.map((i) => i.agent).filter(Boolean));
  const oneRequest = new Set(requests.map((i) => i.requestId)).size === 1 ? requests[0] : undefined;
  return {
    id,
    urgency: highest(items),
    title:
      `Gatehouse: ${items.length} notifications` +
      (requests.length ? `, ${requests.length} about requests` : '') +
      (agents.size === 1 ? ` from ${[...agents][0]}` : ''),
    body: shown.join('\n'),
    items: [...items],
    digest: reason ?? 'batch',
    ...(oneRequest?.requestId ? { requestId: oneRequest.requestId } : {}),
  };
}
