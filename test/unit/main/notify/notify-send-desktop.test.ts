import { describe, expect, it } from 'vitest';
import { DesktopChannel } from '../../../../main/notify/desktop-channel';
import { ChannelUnavailableError } from '../../../../main/notify/channel-health';
import {
  NoNotificationServiceError,
  NotifySendDesktop,
} from '../../../../main/notify/notify-send-desktop';

describe('NotifySendDesktop without notify-send', () => {
  it('reports a missing binary as no notification service, so the channel rests instead of failing each time', async () => {
    const d = new NotifySendDesktop({
      command: ['/nonexistent/notify-send'],
      onAction: () => undefined,
    });
    await expect(d.show({ title: 't', body: 'b', urgency: 'normal' })).rejects.toBeInstanceOf(
      NoNotificationServiceError,
    );
    const said: string[] = [];
    const channel = new DesktopChannel(d, { log: (m) => said.push(m) });
    const n = { id: 'n', urgency: 'normal' as const, title: 't', body: 'b', items: [] };
    await expect(channel.send(n)).rejects.toBeInstanceOf(ChannelUnavailableError);
    await expect(channel.send(n)).rejects.toBeInstanceOf(ChannelUnavailableError);
    expect(said).toEqual([
      'desktop notifications are unavailable (/nonexistent/notify-send not found (install libnotify-bin)); trying again every 300 s',
    ]);
  });
});
