import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { HUB_REFRESH_MS, TrayController } from '../../../../main/shell/tray-controller';
import {
  MAX_LISTED_REQUESTS,
  type TrayCommand,
  type TrayImage,
} from '../../../../main/shell/tray-model';
import { TrayService, type TrayLike } from '../../../../main/shell/tray-service';
import { FakeAdmin, flush, pendingRequest } from './fakes';

/** A stand-in for Electron's Tray that keeps what was set on it. */
class FakeTray implements TrayLike<TrayImage, MenuItemConstructorOptions[]> {
  image: TrayImage;
  tooltip = '';
  title = '';
  menu: MenuItemConstructorOptions[] | null = null;
  clickListeners: (() => void)[] = [];
  setImageCalls = 0;
  destroyed = false;
  constructor(image: TrayImage) {
    this.image = image;
  }
  setImage(image: TrayImage) {
    this.image = image;
    this.setImageCalls++;
  }
  setToolTip(t: string) {
    this.tooltip = t;
  }
  setTitle(t: string) {
    this.title = t;
  }
  setContextMenu(menu: MenuItemConstructorOptions[] | null) {
    this.menu = menu;
  }
  on(_event: 'click', listener: () => void) {
    this.clickListeners.push(listener);
    return this;
  }
  destroy() {
    this.destroyed = true;
  }
  /** Clicks the menu item with this id, as Electron would. */
  click(id: string) {
    const entry = this.menu?.find((m) => m.id === id);
    if (!entry?.click) throw new Error(`no clickable item ${id}`);
    // Electron passes (menuItem, window, event); the service ignores them.
    (entry.click as () => void)();
  }
}

function setup() {
  const admin = new FakeAdmin();
  const trays: FakeTray[] = [];
  const opened: string[] = [];
  const errors: unknown[] = [];
  let quits = 0;
  let startAtLogin = false;
  const service = new TrayService<TrayImage, MenuItemConstructorOptions[]>({
    createTray: (image) => {
      const tray = new FakeTray(image);
      trays.push(tray);
      return tray;
    },
    buildMenu: (template) => template,
    loadImage: (image) => image,
    onCommand: (command: TrayCommand) => void controller.run(command),
    onClick: () => opened.push('(home)'),
  });
  // The service's click handler reaches the controller declared below; clicks come later.
  const controller: TrayController = new TrayController({
    admin,
    tray: service,
    windows: { open: () => opened.push('(home)'), openRequest: (id) => opened.push(id) },
    startAtLogin: { get: () => startAtLogin, set: (v) => void (startAtLogin = v) },
    quit: () => void quits++,
    onError: (e) => errors.push(e),
  });
  return {
    admin,
    service,
    controller,
    opened,
    errors,
    tray: () => {
      if (trays.length !== 1) throw new Error(`expected one tray, got ${trays.length}`);
      return trays[0]!;
    },
    quits: () => quits,
    startAtLogin: () => startAtLogin,
  };
}

describe('TrayService + TrayController', () => {
  it('draws the idle tray after the first load, with menu ids and no title', async () => {
    const t = setup();
    await t.controller.start();
    const tray = t.tray();
    expect(tray.image).toBe('idle');
    expect(tray.title).toBe('');
    expect(tray.tooltip).toBe('Gatehouse: no pending gates');
    expect(tray.menu?.map((m) => m.id)).toContain('quit');
    expect(tray.menu?.find((m) => m.id === 'quiet-hours')).toMatchObject({
      type: 'checkbox',
      checked: false,
    });
    expect(t.admin.listenerCount).toBe(1);
  });

  it('loads pending requests and opens the clicked one', async () => {
    const t = setup();
    t.admin.pending = [pendingRequest({ requestId: 'r1' }), pendingRequest({ requestId: 'r2' })];
    await t.controller.start();
    const tray = t.tray();
    expect(tray.image).toBe('pending');
    expect(tray.title).toBe('2');
    tray.click('request:r2');
    await flush();
    expect(t.opened).toEqual(['r2']);
  });

  it('loads only the head of a long queue and counts the rest from status', async () => {
    const t = setup();
    t.admin.pending = Array.from({ length: 2500 }, (_, i) =>
      pendingRequest({ requestId: `r${i}`, ...(i % 1000 === 0 ? { status: 'timed_out' } : {}) }),
    );
    await t.controller.start();
    const tray = t.tray();
    expect(tray.title).toBe('2500');
    expect(tray.tooltip).toBe('Gatehouse: 2500 pending gates (3 timed out)');
    const listed = tray.menu?.filter((m) => m.id?.startsWith('request:')) ?? [];
    expect(listed).toHaveLength(MAX_LISTED_REQUESTS);
    expect(tray.menu?.find((m) => m.id === 'pending-more')?.label).toBe(
      `${2500 - MAX_LISTED_REQUESTS} more…`,
    );
    const page = t.admin.calls.find((c) => c.method === 'pending.list');
    expect(page?.params).toMatchObject({ limit: MAX_LISTED_REQUESTS, order: 'attention' });
    expect(t.controller.current.pending).toHaveLength(MAX_LISTED_REQUESTS);
  });

  it('says how many waiting requests are from gone agents, and reloads when a session ends', async () => {
    const t = setup();
    t.admin.pending = [pendingRequest({ requestId: 'r1' }), pendingRequest({ requestId: 'r2' })];
    await t.controller.start();
    expect(t.tray().tooltip).toBe('Gatehouse: 2 pending gates');
    // The agent's session ends (abandoned after its grace): the tray asks status again.
    t.admin.pendingAgentsAway = { paused: 0, killed: 0, gone: 2 };
    t.admin.emit({
      type: 'session.ended',
      session: {
        sessionId: 'ses_1',
        agent: 'a',
        status: 'abandoned',
        startedAt: '2026-01-05T09:00:00.000Z',
        endedAt: '2026-01-05T09:05:00.000Z',
        costUsd: 0,
        connections: 0,
      },
      summary: {
        sessionId: 'ses_1',
        startedAt: '2026-01-05T09:00:00.000Z',
        endedAt: '2026-01-05T09:05:00.000Z',
        done: [],
        needsReview: [],
        costUsd: 0,
        text: '',
      },
    });
    await flush();
    await flush();
    expect(t.tray().tooltip).toBe('Gatehouse: 2 pending gates · 2 from gone agents');
  });

  it('updates on request events and folds a burst into few loads', async () => {
    const t = setup();
    await t.controller.start();
    const loadsBefore = t.admin.callsOf('pending.list').length;
    t.admin.pending = [pendingRequest({ requestId: 'n1' })];
    for (let i = 0; i < 5; i++) {
      t.admin.emit({ type: 'request.created', request: pendingRequest({ requestId: 'n1' }) });
    }
    await flush();
    await flush();
    expect(t.tray().title).toBe('1');
    expect(t.tray().setImageCalls).toBe(1);
    // One load for the first event, one more for all the ones that came during it.
    expect(t.admin.callsOf('pending.list').length - loadsBefore).toBe(2);

    t.admin.pending = [];
    t.admin.emit({ type: 'request.decided', request: pendingRequest({ status: 'approved' }) });
    await t.controller.refresh();
    expect(t.tray().image).toBe('idle');
  });

  it('shows a tripped breaker until it is reset', async () => {
    const t = setup();
    await t.controller.start();
    const verdict = {
      breaker: 'cost_day',
      state: 'open' as const,
      tripped: true,
      warning: false,
      current: 12,
      threshold: 10,
    };
    t.admin.emit({ type: 'guard.tripped', agent: 'a', verdict });
    expect(t.tray().image).toBe('breaker');
    expect(t.tray().tooltip).toContain('breaker open: cost_day');
    t.admin.emit({ type: 'guard.tripped', agent: 'b', verdict });
    expect(t.controller.current.openBreakers).toEqual(['cost_day']);
    t.admin.emit({ type: 'guard.reset', breaker: 'cost_day' });
    expect(t.tray().image).toBe('idle');
  });

  it('loads open breakers from the guardrails and follows them on trip and reset', async () => {
    const t = setup();
    const row = (name: string, state: 'open' | 'half_open' | 'closed') => ({
      name,
      kind: 'provider' as const,
      state,
      current: 5,
      threshold: 5,
    });
    t.admin.breakers = [row('provider:openai', 'open'), row('tool:a:x', 'half_open')];
    await t.controller.start();
    expect(t.tray().image).toBe('breaker');
    expect(t.controller.current.openBreakers).toEqual(['provider:openai']);

    t.admin.breakers = [row('provider:openai', 'closed')];
    t.admin.emit({ type: 'guard.reset', breaker: 'provider:openai' });
    await flush();
    await t.controller.refresh();
    expect(t.tray().image).toBe('idle');

    t.admin.breakers = [row('run:s1', 'open')];
    t.admin.emit({
      type: 'guard.tripped',
      verdict: {
        breaker: 'run',
        state: 'open',
        tripped: true,
        warning: false,
        current: 1,
        threshold: 1,
      },
    });
    await flush();
    await t.controller.refresh();
    expect(t.controller.current.openBreakers).toEqual(['run:s1']);
  });

  it('lists sessions in conservative mode and recovers one from the menu', async () => {
    const t = setup();
    t.admin.breakers = [
      {
        name: 'safety_switch:ses-9',
        kind: 'safety_switch',
        state: 'open',
        reason: 'rate_limit',
        current: 1,
        threshold: 3,
      },
    ];
    t.admin.sessions = [
      {
        sessionId: 'ses-9',
        agent: 'cautious',
        status: 'active',
        startedAt: '2026-01-05T09:00:00.000Z',
        costUsd: 0,
        connections: 1,
      },
    ];
    await t.controller.start();
    expect(t.controller.current.conservative).toEqual([
      { sessionId: 'ses-9', agent: 'cautious', reason: 'rate_limit' },
    ]);
    // Conservative mode is not a tripped breaker: the picture stays calm.
    expect(t.controller.current.openBreakers).toEqual([]);
    t.tray().click('conservative:ses-9');
    await flush();
    expect(t.admin.calls.some((c) => c.method === 'guards.recover')).toBe(true);
    await t.controller.refresh();
    expect(t.controller.current.conservative).toEqual([]);
  });

  it('routes pause-all and resume-all to the admin service and flips the item', async () => {
    const t = setup();
    await t.controller.start();
    t.tray().click('pause-all');
    await flush();
    await t.controller.refresh();
    expect(t.admin.callsOf('pause')).toEqual([{ reason: 'paused from the tray' }]);
    expect(t.tray().image).toBe('paused');
    expect(t.tray().menu?.map((m) => m.id)).toContain('resume-all');
    t.tray().click('resume-all');
    await flush();
    await t.controller.refresh();
    expect(t.admin.callsOf('resume')).toEqual([{ reason: 'resumed from the tray' }]);
    expect(t.tray().image).toBe('idle');
  });

  it('toggles quiet hours through settings.set', async () => {
    const t = setup();
    await t.controller.start();
    t.tray().click('quiet-hours');
    await flush();
    await t.controller.refresh();
    expect(t.admin.callsOf('settings.set')).toEqual([
      { key: 'notifications.quietHours.enabled', value: true },
    ]);
    expect(t.tray().menu?.find((m) => m.id === 'quiet-hours')?.checked).toBe(true);
    expect(t.tray().tooltip).toContain('quiet hours');
  });

  it('routes open, start-at-login, quit and the icon click', async () => {
    const t = setup();
    await t.controller.start();
    t.tray().click('open');
    t.tray().clickListeners.forEach((l) => l());
    t.tray().click('start-at-login');
    await flush();
    expect(t.startAtLogin()).toBe(true);
    expect(t.tray().menu?.find((m) => m.id === 'start-at-login')?.checked).toBe(true);
    t.tray().click('quit');
    await flush();
    expect(t.opened).toEqual(['(home)', '(home)']);
    expect(t.quits()).toBe(1);
    expect(t.errors).toEqual([]);
  });

  it('reports a failing command instead of throwing into Electron', async () => {
    const t = setup();
    await t.controller.start();
    t.admin.invokeUnchecked = async () => {
      throw new Error('engine down');
    };
    t.tray().click('pause-all');
    await flush();
    expect(t.errors).toHaveLength(1);
  });

  it('stops listening and removes the icon', async () => {
    const t = setup();
    await t.controller.start();
    t.controller.stop();
    t.service.destroy();
    expect(t.admin.listenerCount).toBe(0);
    expect(t.tray().destroyed).toBe(true);
  });

  it('follows the hub link from status: it appears when joined and changes without an engine event', async () => {
    vi.useFakeTimers();
    try {
      const t = setup();
      await t.controller.start();
      expect(t.tray().tooltip).toBe('Gatehouse: no pending gates');
      t.admin.hub = {
        url: 'http://127.0.0.1:7230',
        machineName: 'laptop',
        connected: false,
        error: 'ECONNREFUSED',
        outbox: 3,
        shownOnHub: [],
      };
      // No event: the periodic look picks it up.
      await vi.advanceTimersByTimeAsync(HUB_REFRESH_MS);
      expect(t.tray().tooltip).toBe('Gatehouse: no pending gates · hub not linked');
      expect(t.tray().menu?.find((m) => m.id === 'hub-link')?.label).toBe(
        'Team hub: not linked to 127.0.0.1:7230 (ECONNREFUSED)',
      );
      t.admin.hub = { ...t.admin.hub, connected: true, shownOnHub: ['r1'] };
      delete t.admin.hub.error;
      await vi.advanceTimersByTimeAsync(HUB_REFRESH_MS);
      expect(t.tray().tooltip).toBe('Gatehouse: no pending gates · hub linked');
      expect(t.tray().menu?.find((m) => m.id === 'hub-shown')?.label).toBe(
        '1 pending gate also on the hub',
      );
      t.controller.stop();
      t.admin.hub = undefined;
      await vi.advanceTimersByTimeAsync(HUB_REFRESH_MS * 2);
      // Stopped: no more looks.
      expect(t.tray().tooltip).toBe('Gatehouse: no pending gates · hub linked');
    } finally {
      vi.useRealTimers();
    }
  });
});
