import { describe, expect, it } from 'vitest';
import { DesktopChannel } from '../../../../main/notify/desktop-channel';
import type { DesktopNotice } from '../../../../main/notify/desktop-port';
import { NodeNotifierDesktop } from '../../../../main/notify/node-notifier-desktop';
import { backoffDelay } from '../../../../main/notify/backoff';
import { signWebhookBody, verifyWebhookSignature } from '../../../../main/notify/webhook-signature';
import { toOutgoing } from '../../../../main/notify/digest';
import { newRequestItem } from '../../../../main/notify/compose';
import { settingKeys } from '../../../../shared/settings';
import { makeRequest } from '../../../support/notify-fixtures';

describe('node-notifier desktop adapter', () => {
  const capture = (error: Error | null = null) => {
    const calls: Record<string, unknown>[] = [];
    const notifier = {
      notify(options: Record<string, unknown>, cb: (e: Error | null) => void) {
        calls.push(options);
        cb(error);
      },
    };
    return { calls, notifier };
  };

  it('maps urgency, keeps high until dismissed and escapes markup in the body', async () => {
    const { calls, notifier } = capture();
    const desktop = new NodeNotifierDesktop({ notifier, escapeMarkup: true });
    await desktop.show({ title: 'a <b>', body: 'x & y\n<i>z</i>', urgency: 'high' });
    await desktop.show({ title: 't', body: 'b', urgency: 'low' });
    expect(calls[0]).toMatchObject({
      title: 'a <b>',
      message: 'x &amp; y · &lt;i&gt;z&lt;/i&gt;',
      urgency: 'critical',
      time: 0,
      'app-name': 'Gatehouse',
    });
    expect(calls[1]).toMatchObject({ urgency: 'low', time: 10 });
  });

  it('rejects only on a real error (node-notifier reports stderr text as the error)', async () => {
    await expect(
      new NodeNotifierDesktop({ notifier: capture(new Error('no dbus')).notifier }).show({
        title: 't',
        body: 'b',
        urgency: 'normal',
      }),
    ).rejects.toThrow('no dbus');
    const stderrOnly = {
      notify: (_: Record<string, unknown>, cb: (e: Error | null) => void) =>
        cb('' as unknown as null),
    };
    await expect(
      new NodeNotifierDesktop({ notifier: stderrOnly }).show({
        title: 't',
        body: 'b',
        urgency: 'normal',
      }),
    ).resolves.toBeUndefined();
  });

  it('hands the desktop port the request to open on click', async () => {
    const shown: DesktopNotice[] = [];
    const channel = new DesktopChannel({ show: async (n) => void shown.push(n) });
    const r = makeRequest({ urgency: 'high' });
    await channel.send(toOutgoing('n1', [newRequestItem(r)]));
    expect(shown[0]).toMatchObject({ requestId: r.requestId, urgency: 'high' });
    expect(shown[0]!.title).toBe('builder wants to git_push');
  });
});

describe('webhook signature and back-off', () => {
  it('signs the exact bytes and verifies in constant time', () => {
    const sig = signWebhookBody('k', '{"a":1}');
    // Same value as: printf '%s' '{"a":1}' | openssl dgst -sha256 -hmac k
    expect(sig).toBe('sha256=c3a92ff9e274cdcce27a58c15a78ec6dcbbdbd0038a87e7a11baef2028fd8bff');
    expect(verifyWebhookSignature('k', '{"a":1}', sig)).toBe(true);
    expect(verifyWebhookSignature('k', '{"a":2}', sig)).toBe(false);
    expect(verifyWebhookSignature('other', '{"a":1}', sig)).toBe(false);
    expect(verifyWebhookSignature('k', '{"a":1}', undefined)).toBe(false);
  });

  it('doubles the wait and caps it', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, 1000, 5000))).toEqual([
      1000, 2000, 4000, 5000, 5000,
    ]);
  });
});

describe('notification settings', () => {
  it('keeps the documented keys settable by `gatehouse config set`', () => {
    const keys = settingKeys();
    for (const key of [
      'notifications.quietHours.enabled',
      'notifications.quietHours.start',
      'notifications.quietHours.end',
      'notifications.batchIntervalMs',
      'notifications.cooldownMs',
      'notifications.reminder.afterMs',
      'notifications.escalation.enabled',
      'notifications.sessionSummary.enabled',
      'notifications.breakerTrip.enabled',
      'notifications.channels.desktop.minUrgency',
      'notifications.channels.webhook.url',
      'notifications.channels.email.host',
    ]) {
      expect(keys).toContain(key);
    }
  });
});
