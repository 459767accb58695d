import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DesktopChannel } from '../../../main/notify/desktop-channel';
import type { DesktopNotice } from '../../../main/notify/desktop-port';
import { NotifySendDesktop, type DesktopAction } from '../../../main/notify/notify-send-desktop';
import { TestDaemon } from '../../support/daemon';
import { FakeClock } from '../../support/fake-clock';
import { startNotificationDesktop } from '../../support/notify-desktop-env';
import { makeRequest, makeSettings, startDispatcher, TestBus } from '../../support/notify-fixtures';

let desktop: Awaited<ReturnType<typeof startNotificationDesktop>>;
beforeAll(async () => {
  desktop = await startNotificationDesktop();
});
afterAll(async () => {
  await desktop?.stop();
});

const NO_BUS = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };

describe('desktop channel without and with a notification service', () => {
  it('says once that there is no notification service, skips while unavailable, and retries later', async () => {
    const clock = new FakeClock();
    const bus = new TestBus();
    const logged: string[] = [];
    let env: NodeJS.ProcessEnv = NO_BUS;
    const shown: DesktopNotice[] = [];
    const real = () => new NotifySendDesktop({ env, onAction: () => undefined });
    const counting = {
      show: async (n: DesktopNotice) => {
        shown.push(n);
        const d = real();
        await d.show(n);
        d.stop();
      },
    };
    const dispatcher = startDispatcher({
      clock,
      bus,
      settings: makeSettings({ reminder: { enabled: false } }),
      channels: [new DesktopChannel(counting, { clock, log: (m) => logged.push(m) })],
      log: (m) => logged.push(m),
    });
    try {
      bus.publish({ type: 'request.created', request: makeRequest({ sessionId: 'a' }) });
      await vi.waitFor(() => expect(dispatcher.health()[0]!.state).toBe('unavailable'), {
        timeout: 10_000,
      });
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatch(
        /^desktop notifications are unavailable \(no desktop notification service/,
      );
      bus.publish({ type: 'request.created', request: makeRequest({ sessionId: 'b' }) });
      await vi.waitFor(() => expect(dispatcher.health()[0]!.lastErrorAt).toBeDefined());
      await new Promise((r) => setImmediate(r));
      expect(shown).toHaveLength(1); // not tried again inside the rest period
      expect(logged).toHaveLength(1); // and not said again

      env = desktop.env; // a notification daemon appears
      clock.advance(5 * 60_000);
      bus.publish({ type: 'request.created', request: makeRequest({ sessionId: 'c' }) });
      await vi.waitFor(() => expect(dispatcher.health()[0]!.state).toBe('ok'), { timeout: 10_000 });
      expect(shown).toHaveLength(2);
      expect(logged.at(-1)).toBe('desktop notifications are available again');
    } finally {
      dispatcher.stop();
    }
  });

  it('opens the request when the body of its notice is clicked', async () => {
    await desktop.notifications();
    const actions: [string, DesktopAction][] = [];
    const d = new NotifySendDesktop({
      env: desktop.env,
      onAction: (id, a) => void actions.push([id, a]),
    });
    try {
      await d.show({
        title: 'builder wants to git_push',
        body: 'push',
        urgency: 'high',
        requestId: 'r-9',
      });
      expect(d.liveCount).toBe(1);
      await desktop.clickBody();
      await vi.waitFor(() => expect(actions).toEqual([['r-9', 'open']]));
      await vi.waitFor(() => expect(d.liveCount).toBe(0));
    } finally {
      d.stop();
    }
  });

  it('gatehouse status shows the desktop channel unavailable when the daemon has no D-Bus', async () => {
    const daemon = await TestDaemon.start({
      DBUS_SESSION_BUS_ADDRESS: NO_BUS.DBUS_SESSION_BUS_ADDRESS,
    });
    try {
      const agent = await daemon.agent({ agent: 'night-bot' });
      try {
        await agent.request({
          action: 'deploy',
          description: 'deploy',
          urgency: 'high',
          wait: false,
        });
      } finally {
        agent.close();
      }
      await vi.waitFor(
        async () => {
          const r = await daemon.cli(['status']);
          expect(r.stdout).toMatch(
            /Notifications: desktop unavailable since .*: no desktop notification service/,
          );
        },
        { timeout: 15_000, interval: 100 },
      );
      const json = JSON.parse((await daemon.cli(['status', '--json'])).stdout) as {
        channels: { channel: string; state: string }[];
      };
      expect(json.channels.find((c) => c.channel === 'desktop')?.state).toBe('unavailable');
      expect(json.channels.find((c) => c.channel === 'ntfy')?.state).toBe('disabled');
      expect(daemon.output.match(/desktop notifications are unavailable/g)).toHaveLength(1);
    } finally {
      await daemon.stop();
    }
  });
});
