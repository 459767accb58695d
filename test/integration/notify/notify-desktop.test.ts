import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GatehouseClient } from '../../../clients/sdk/client';
import { createCore } from '../../../main/core';
import { startNotifier } from '../../../main/notify/start-notifier';
import type { Settings } from '../../../shared/settings';
import { DesktopChannel } from '../../../main/notify/desktop-channel';
import { NodeNotifierDesktop } from '../../../main/notify/node-notifier-desktop';
import { FakeClock } from '../../support/fake-clock';
import { makeRequest, makeSettings, startDispatcher, TestBus } from '../../support/notify-fixtures';
import { startNotificationDesktop } from '../../support/notify-desktop-env';

let desktop: Awaited<ReturnType<typeof startNotificationDesktop>>;
const savedBus = process.env.DBUS_SESSION_BUS_ADDRESS;

beforeAll(async () => {
  desktop = await startNotificationDesktop();
  // node-notifier runs notify-send with this process's environment.
  process.env.DBUS_SESSION_BUS_ADDRESS = desktop.bus;
});

afterAll(async () => {
  if (savedBus === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
  else process.env.DBUS_SESSION_BUS_ADDRESS = savedBus;
  await desktop?.stop();
});

function dispatcherAt(startIso: string, settings: Settings) {
  const clock = new FakeClock(Date.parse(startIso));
  const bus = new TestBus();
  const errors: string[] = [];
  const dispatcher = startDispatcher({
    clock,
    bus,
    settings,
    channels: [new DesktopChannel(new NodeNotifierDesktop())],
    timeZone: 'UTC',
    log: (m, e) => errors.push(`${m}: ${String(e)}`),
  });
  return { clock, bus, dispatcher, errors };
}

describe('desktop channel through notify-send into a real notification server (dunst)', () => {
  it('shows a high-urgency request; in quiet hours a low one stays back until they end', async () => {
    const settings = makeSettings({
      quietHours: { enabled: true, start: '22:00', end: '07:00' },
      reminder: { enabled: false },
    });
    const t = dispatcherAt('2026-01-05T23:30:00Z', settings);
    const low = makeRequest({
      urgency: 'low',
      agent: 'indexer',
      action: 'send_email',
      description: 'mail the weekly index report',
    });
    const high = makeRequest({
      urgency: 'high',
      agent: 'deployer',
      action: 'deploy',
      description: 'deploy release 2.3 to production',
      rationale: 'hotfix for the login outage',
    });
    t.bus.publish({ type: 'request.created', request: low });
    t.bus.publish({ type: 'request.created', request: high });

    await vi.waitFor(
      async () =>
        expect((await desktop.notifications()).map((n) => n.summary)).toContain(
          'deployer wants to deploy',
        ),
      { timeout: 15_000, interval: 100 },
    );
    const shown = await desktop.notifications();
    expect(shown).toHaveLength(1);
    const n = shown[0]!;
    expect(n.appname).toBe('Gatehouse');
    expect(n.timeout).toBe(0); // critical: stays until dismissed
    expect(n.body).toContain('Wants to: deploy release 2.3 to production (deploy)');
    expect(n.body).toContain('Why: hotfix for the login outage');
    expect(n.body).toContain('Urgency: high');
    expect(n.body).toContain(`gatehouse approve ${high.requestId}`);
    expect(t.dispatcher.held().quiet).toBe(1);

    // 07:00: quiet hours end and what they held appears.
    t.clock.set(Date.parse('2026-01-06T07:00:00Z'));
    await vi.waitFor(
      async () =>
        expect((await desktop.notifications()).map((x) => x.summary)).toContain(
          'indexer wants to send_email',
        ),
      { timeout: 15_000, interval: 100 },
    );
    expect(t.errors).toEqual([]);
    t.dispatcher.stop();
  });

  it('shows a high-urgency request an agent files over the real socket (core in-process)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'gh-notify-'));
    const core = createCore({ home, socketPath: join(home, 'agent.sock') });
    await core.listen();
    const errors: string[] = [];
    const notifier = startNotifier({
      admin: core.admin,
      getSettings: () => core.settings.get(),
      desktop: new NodeNotifierDesktop(),
      log: (m, e) => errors.push(`${m}: ${String(e)}`),
    });
    const agent = await GatehouseClient.connect({
      agent: 'socket-agent',
      socketPath: core.socketPath,
    });
    try {
      const answer = await agent.request({
        action: 'git_push',
        description: 'push the release tag v9.9.9',
        rationale: 'the release checklist is complete',
        urgency: 'high',
        wait: false,
      });
      expect(answer.status).toBe('queued');
      await vi.waitFor(
        async () => {
          const shown = await desktop.notifications();
          const mine = shown.find((n) => n.summary === 'socket-agent wants to git_push');
          expect(mine?.body).toContain(`gatehouse approve ${answer.requestId}`);
          expect(mine?.body).toContain('push the release tag v9.9.9');
        },
        { timeout: 15_000, interval: 100 },
      );
      expect(errors).toEqual([]);
    } finally {
      agent.close();
      // Let the server see the disconnect before the database closes under it.
      await vi.waitFor(async () => {
        const { agents } = await core.admin.invoke('agents.list', {});
        expect(agents.reduce((n, a) => n + a.connections, 0)).toBe(0);
      });
      notifier.stop();
      await core.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
