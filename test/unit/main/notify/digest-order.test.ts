import { describe, expect, it } from 'vitest';
import { toOutgoing } from '../../../../main/notify/digest';
import type { NotificationItem } from '../../../../main/notify/types';

const item = (title: string, at: string, urgency: NotificationItem['urgency'], blocked: boolean) =>
  ({
    kind: 'request',
    urgency,
    title,
    body: title,
    at,
    requestId: `req-${title}`,
    blocked,
  }) satisfies NotificationItem;

describe('the digest a phone gets lists what needs the person first', () => {
  it('blocked agents, then urgency, then the oldest — the order of the queue everywhere', () => {
    const digest = toOutgoing('n-1', [
      item('A', '2026-01-01T10:00:00.000Z', 'normal', false),
      item('B', '2026-01-01T10:01:00.000Z', 'high', false),
      item('C', '2026-01-01T10:02:00.000Z', 'low', true),
      item('D', '2026-01-01T10:03:00.000Z', 'high', true),
      item('E', '2026-01-01T09:00:00.000Z', 'high', true),
    ]);
    const lines = digest.body.split('\n').filter((l) => l.startsWith('•'));
    expect(lines.map((l) => /\] (\w)/.exec(l)?.[1])).toEqual(['E', 'D', 'C', 'B', 'A']);
  });
});
