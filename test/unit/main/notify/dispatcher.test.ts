import { afterEach, describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../../../shared/domain';
import type { Settings } from '../../../../shared/settings';
import { NotificationDispatcher } from '../../../../main/notify/dispatcher';
import { FakeClock } from '../../../support/fake-clock';
import {
  makeRequest,
  makeSettings,
  RecordingChannel,
  TestBus,
} from '../../../support/notify-fixtures';

const MIN = 60_000;

function setup(
  notifications: Record<string, unknown> = {},
  opts: { start?: string; listPending?: () => RequestRecord[] } = {},
) {
  const clock = new FakeClock(Date.parse(opts.start ?? '2026-01-05T09:00:00Z'));
  const bus = new TestBus();
  let settings: Settings = makeSettings(notifications);
  const desktop = new RecordingChannel('desktop');
  const webhook = new RecordingChannel('webhook');
  const logged: string[] = [];
  const dispatcher = new NotificationDispatcher({
    clock,
    subscribe: bus.subscribe,
    getSettings: () => settings,
    channels: [desktop, webhook],
    timeZone: 'UTC',
    requestUrl: (id) => `http://127.0.0.1:4321/#/requests/${id}`,
    log: (m) => logged.push(m),
    ...(opts.listPending ? { listPending: opts.listPending } : {}),
  });
  dispatcher.start();
  const request = (overrides: Partial<RequestRecord> = {}): RequestRecord => {
    const r = makeRequest({ createdAt: new Date(clock.now()).toISOString(), ...overrides });
    bus.publish({ type: 'request.created', request: r });
    return r;
  };
  const setSettings = (n: Record<string, unknown>): void => {
    settings = makeSettings(n);
    bus.publish({ type: 'settings.changed', settings: {} });
  };
  return { clock, bus, dispatcher, desktop, webhook, logged, request, setSettings };
}

let stopAll: (() => void)[] = [];
afterEach(() => {
  for (const stop of stopAll) stop();
  stopAll = [];
});
const use = <T extends { dispatcher: NotificationDispatcher }>(t: T): T => {
  stopAll.push(() => t.dispatcher.stop());
  return t;
};

describe('NotificationDispatcher', () => {
  it('notifies a new request with what, why, how urgent and how to decide', () => {
    const t = use(setup());
    const r = t.request({ urgency: 'high', command: 'git push origin fix-login' });
    expect(t.desktop.sent).toHaveLength(1);
    const n = t.desktop.sent[0]!;
    expect(n.title).toBe('builder wants to git_push');
    expect(n.urgency).toBe('high');
    expect(n.requestId).toBe(r.requestId);
    expect(n.body).toContain('Wants to: push branch fix-login to origin (git_push)');
    expect(n.body).toContain('Why: the tests pass');
    expect(n.body).toContain('Command: git push origin fix-login');
    expect(n.body).toContain('Urgency: high');
    expect(n.body).toContain(`gatehouse approve ${r.requestId}`);
    expect(n.body).toContain(`http://127.0.0.1:4321/#/requests/${r.requestId}`);
  });

  it('ignores requests that policy already decided', () => {
    const t = use(setup());
    t.request({ status: 'approved', tier: 'auto' });
    expect(t.desktop.sent).toHaveLength(0);
  });

  it('applies each channel its own minimum urgency', () => {
    const t = use(
      setup({
        channels: {
          desktop: { minUrgency: 'low' },
          webhook: { enabled: true, url: 'http://x.test/', minUrgency: 'high' },
        },
      }),
    );
    t.request({ urgency: 'low' });
    t.request({ urgency: 'normal' });
    t.request({ urgency: 'high' });
    expect(t.desktop.sent.map((n) => n.urgency)).toEqual(['low', 'normal', 'high']);
    expect(t.webhook.sent.map((n) => n.urgency)).toEqual(['high']);
  });

  it('sends nothing to a disabled channel', () => {
    const t = use(setup({ channels: { desktop: { enabled: false } } }));
    t.request({ urgency: 'high' });
    expect(t.desktop.sent).toHaveLength(0);
    expect(t.webhook.sent).toHaveLength(0); // webhook is off by default
  });

  describe('quiet hours 22:00–07:00', () => {
    const quiet = {
      quietHours: { enabled: true, start: '22:00', end: '07:00' },
      reminder: { enabled: false },
    };

    it('let only high through after midnight and release the rest as a digest at 07:00', () => {
      const t = use(setup(quiet, { start: '2026-01-05T23:30:00Z' }));
      t.request({ urgency: 'low', description: 'low one' });
      t.clock.advance(60 * MIN); // 00:30, the other side of midnight
      t.request({ urgency: 'normal', description: 'normal one' });
      t.request({ urgency: 'high', description: 'high one' });
      expect(t.desktop.sent.map((n) => n.urgency)).toEqual(['high']);
      expect(t.dispatcher.held().quiet).toBe(2);

      t.clock.set(Date.parse('2026-01-06T06:59:59Z'));
      expect(t.desktop.sent).toHaveLength(1);
      t.clock.set(Date.parse('2026-01-06T07:00:00Z'));
      expect(t.desktop.sent).toHaveLength(2);
      const digest = t.desktop.sent[1]!;
      expect(digest.digest).toBe('quiet_hours_end');
      expect(digest.items.map((i) => i.urgency)).toEqual(['low', 'normal']);
      expect(digest.title).toBe('Gatehouse: 2 notifications, 2 about requests from builder');
    });

    it('do not apply before 22:00 or from 07:00', () => {
      const t = use(setup(quiet, { start: '2026-01-05T21:59:00Z' }));
      t.request({ urgency: 'low' });
      t.clock.set(Date.parse('2026-01-06T07:00:00Z'));
      t.request({ urgency: 'low' });
      expect(t.desktop.sent).toHaveLength(2);
    });

    it('drop held requests that were decided in the meantime', () => {
      const t = use(setup(quiet, { start: '2026-01-05T23:00:00Z' }));
      const r = t.request({ urgency: 'normal' });
      t.bus.publish({ type: 'request.decided', request: { ...r, status: 'approved' } });
      t.clock.set(Date.parse('2026-01-06T07:00:00Z'));
      expect(t.desktop.sent).toHaveLength(0);
    });

    it('release as soon as quiet hours are switched off', async () => {
      const t = use(setup(quiet, { start: '2026-01-05T23:00:00Z' }));
      t.request({ urgency: 'normal' });
      expect(t.desktop.sent).toHaveLength(0);
      t.setSettings({});
      await Promise.resolve();
      expect(t.desktop.sent).toHaveLength(1);
    });
  });

  describe('batching', () => {
    it('collects one interval into one digest', () => {
      const t = use(setup({ batchIntervalMs: 5 * MIN }));
      t.request({ agent: 'a', sessionId: 's-a' });
      t.clock.advance(2 * MIN);
      t.request({ agent: 'b', sessionId: 's-b', urgency: 'normal' });
      t.request({ agent: 'c', sessionId: 's-c', urgency: 'low' });
      expect(t.desktop.sent).toHaveLength(0);
      t.clock.advance(3 * MIN);
      expect(t.desktop.sent).toHaveLength(1);
      const d = t.desktop.sent[0]!;
      expect(d.digest).toBe('batch');
      expect(d.urgency).toBe('normal');
      expect(d.items).toHaveLength(3);
      expect(d.body.split('\n')).toHaveLength(4);
      // The next interval starts with the next item.
      t.request({ sessionId: 's-d' });
      t.clock.advance(5 * MIN);
      expect(t.desktop.sent).toHaveLength(2);
      expect(t.desktop.sent[1]!.items).toHaveLength(1);
    });

    it('filters a digest per channel by minimum urgency', () => {
      const t = use(
        setup({
          batchIntervalMs: MIN,
          channels: { webhook: { enabled: true, url: 'http://x.test/', minUrgency: 'normal' } },
        }),
      );
      t.request({ sessionId: 's1', urgency: 'low' });
      t.request({ sessionId: 's2', urgency: 'normal' });
      t.clock.advance(MIN);
      expect(t.desktop.sent[0]!.items).toHaveLength(2);
      expect(t.webhook.sent[0]!.items.map((i) => i.urgency)).toEqual(['normal']);
    });
  });

  describe('urgent is never late', () => {
    it('sends a high request filed right after a normal one of the same session at once', () => {
      const t = use(setup({ cooldownMs: 30_000 }));
      t.request({ sessionId: 'ses', urgency: 'normal' });
      const urgent = t.request({ sessionId: 'ses', urgency: 'high' });
      expect(t.desktop.sent.map((n) => n.requestId)).toHaveLength(2);
      expect(t.desktop.sent[1]!.requestId).toBe(urgent.requestId);
      expect(t.desktop.sent[1]!.digest).toBeUndefined();
      expect(t.dispatcher.held().cooldown).toBe(0);
    });

    it('is not held by batching, and a critical-risk request is treated as urgent', () => {
      const t = use(setup({ batchIntervalMs: 5 * MIN }));
      t.request({ sessionId: 'a', urgency: 'normal' });
      t.request({ sessionId: 'b', urgency: 'high' });
      t.request({ sessionId: 'c', urgency: 'normal', risk: 'critical' });
      expect(t.desktop.sent.map((n) => n.items.length)).toEqual([1, 1]);
      expect(t.dispatcher.held().batch).toBe(1);
    });

    it('still opens the cooldown window: a normal one right after a high one waits', () => {
      const t = use(setup({ cooldownMs: 30_000 }));
      t.request({ sessionId: 'ses', urgency: 'high' });
      t.request({ sessionId: 'ses', urgency: 'normal' });
      expect(t.desktop.sent).toHaveLength(1);
      expect(t.dispatcher.held().cooldown).toBe(1);
    });

    it('digests the 6th high request of one session within a minute', () => {
      const t = use(setup({ cooldownMs: 30_000 }));
      for (let i = 0; i < 5; i++) {
        t.request({ sessionId: 'loop', urgency: 'high' });
        t.clock.advance(1_000);
      }
      expect(t.desktop.sent).toHaveLength(5);
      t.request({ sessionId: 'loop', urgency: 'high' });
      t.request({ sessionId: 'loop', urgency: 'high' });
      t.request({ sessionId: 'other', urgency: 'high' });
      expect(t.desktop.sent).toHaveLength(6); // only the other session's
      expect(t.dispatcher.held().flood).toBe(2);
      // The oldest of the five leaves the minute 55 s from now: then the two go as one digest.
      t.clock.advance(54_999);
      expect(t.desktop.sent).toHaveLength(6);
      t.clock.advance(1);
      expect(t.desktop.sent).toHaveLength(7);
      expect(t.desktop.sent[6]!.digest).toBe('flood');
      expect(t.desktop.sent[6]!.items).toHaveLength(2);
      // A quiet minute later the session may alert at once again.
      t.clock.advance(MIN);
      t.request({ sessionId: 'loop', urgency: 'high' });
      expect(t.desktop.sent).toHaveLength(8);
    });

    it('drops a held urgent item whose request was decided', () => {
      const t = use(setup());
      for (let i = 0; i < 5; i++) t.request({ sessionId: 'loop', urgency: 'high' });
      const r = t.request({ sessionId: 'loop', urgency: 'high' });
      t.bus.publish({ type: 'request.decided', request: { ...r, status: 'approved' } });
      t.clock.advance(MIN);
      expect(t.desktop.sent).toHaveLength(5);
    });
  });

  describe('per-session cooldown', () => {
    it('turns a flood from one session into one alert per window', () => {
      const t = use(setup({ cooldownMs: MIN }));
      for (let i = 0; i < 50; i++) t.request({ sessionId: 'loop', urgency: 'normal' });
      t.request({ sessionId: 'other' });
      expect(t.desktop.sent.map((n) => n.items.length)).toEqual([1, 1]);
      expect(t.dispatcher.held().cooldown).toBe(49);
      t.clock.advance(MIN);
      expect(t.desktop.sent).toHaveLength(3);
      expect(t.desktop.sent[2]!.digest).toBe('cooldown');
      expect(t.desktop.sent[2]!.items).toHaveLength(49);
      // The release opened a new window: the next one waits for it too.
      t.request({ sessionId: 'loop' });
      expect(t.desktop.sent).toHaveLength(3);
      t.clock.advance(MIN);
      expect(t.desktop.sent).toHaveLength(4);
      // A quiet window closes and the session may alert at once again.
      t.clock.advance(MIN);
      t.request({ sessionId: 'loop' });
      expect(t.desktop.sent).toHaveLength(5);
    });

    it('is off at 0', () => {
      const t = use(setup({ cooldownMs: 0 }));
      for (let i = 0; i < 5; i++) t.request({ sessionId: 'loop' });
      expect(t.desktop.sent).toHaveLength(5);
    });
  });

  describe('reminders', () => {
    it('remind once about a request still pending after the delay', () => {
      const t = use(setup({ reminder: { enabled: true, afterMs: 15 * MIN } }));
      const r = t.request();
      const decided = t.request();
      t.clock.advance(5 * MIN);
      t.bus.publish({ type: 'request.decided', request: { ...decided, status: 'denied' } });
      t.clock.advance(10 * MIN - 1);
      expect(t.desktop.sent).toHaveLength(2);
      t.clock.advance(1);
      expect(t.desktop.sent).toHaveLength(3);
      const reminder = t.desktop.sent[2]!;
      expect(reminder.items[0]!.kind).toBe('reminder');
      expect(reminder.requestId).toBe(r.requestId);
      expect(reminder.title).toBe('Still waiting: builder wants to git_push');
      t.clock.advance(60 * MIN);
      expect(t.desktop.sent).toHaveLength(3);
    });

    it('ask the store and schedule for requests already pending at start', async () => {
      const old = makeRequest({ requestId: 'old', createdAt: '2026-01-05T08:50:00Z' });
      let pending: RequestRecord[] = [old];
      const t = use(setup({ reminder: { afterMs: 15 * MIN } }, { listPending: () => pending }));
      await Promise.resolve(); // start() lists pending requests asynchronously
      await Promise.resolve();
      expect(t.dispatcher.held().reminders).toBe(1);
      t.clock.advance(5 * MIN); // 09:05 = 08:50 + 15 min
      await Promise.resolve();
      expect(t.desktop.sent.map((n) => n.requestId)).toEqual(['old']);

      // Decided somewhere the dispatcher did not see: the store says so, no reminder.
      const r = t.request();
      pending = [];
      t.clock.advance(15 * MIN);
      await Promise.resolve();
      expect(t.desktop.sent.map((n) => n.requestId)).toEqual(['old', r.requestId]);
    });

    it('can be switched off', () => {
      const t = use(setup({ reminder: { enabled: false } }));
      t.request();
      t.clock.advance(24 * 60 * MIN);
      expect(t.desktop.sent).toHaveLength(1);
    });
  });

  describe('escalation, summaries and breaker trips', () => {
    it('escalates a timed-out request at the configured urgency, even in quiet hours', () => {
      const t = use(setup({ quietHours: { enabled: true } }, { start: '2026-01-05T23:00:00Z' }));
      const r = t.request({ urgency: 'low' });
      t.bus.publish({ type: 'request.timed_out', request: { ...r, status: 'timed_out' } });
      expect(t.desktop.sent).toHaveLength(1);
      const n = t.desktop.sent[0]!;
      expect(n.urgency).toBe('high');
      expect(n.items[0]!.kind).toBe('escalation');
      expect(n.title).toBe('Timed out: builder wants to git_push');
      expect(n.body).toContain('approving now grants this exact action once');
    });

    it('has its own switch', () => {
      const t = use(setup({ escalation: { enabled: false } }));
      const r = t.request();
      t.bus.publish({ type: 'request.timed_out', request: { ...r, status: 'timed_out' } });
      expect(t.desktop.sent).toHaveLength(1);
    });

    it('notifies session summaries and breaker trips, each with its own switch', () => {
      const t = use(setup());
      const session = {
        sessionId: 'ses-9',
        agent: 'builder',
        status: 'completed' as const,
        startedAt: '2026-01-05T08:00:00Z',
        endedAt: '2026-01-05T09:00:00Z',
        costUsd: 1.25,
        connections: 0,
      };
      const summary = {
        sessionId: 'ses-9',
        startedAt: session.startedAt,
        endedAt: session.endedAt,
        done: ['fixed login'],
        needsReview: ['git_push to origin'],
        costUsd: 1.25,
        text: 'Fixed the login bug; one push waits for review.',
      };
      t.bus.publish({ type: 'session.ended', session, summary });
      const verdict = {
        breaker: 'daily_budget',
        state: 'open' as const,
        tripped: true,
        warning: false,
        reason: 'DAILY_BUDGET_EXCEEDED',
        current: 51,
        threshold: 50,
      };
      t.bus.publish({ type: 'guard.tripped', agent: 'builder', verdict });
      expect(t.desktop.sent.map((n) => n.items[0]!.kind)).toEqual([
        'session_summary',
        'breaker_trip',
      ]);
      expect(t.desktop.sent[0]!.body).toContain('Needs review: git_push to origin');
      expect(t.desktop.sent[1]!.urgency).toBe('high');
      expect(t.desktop.sent[1]!.body).toContain('DAILY_BUDGET_EXCEEDED');

      t.setSettings({ sessionSummary: { enabled: false }, breakerTrip: { enabled: false } });
      t.bus.publish({ type: 'session.ended', session, summary });
      t.bus.publish({ type: 'guard.tripped', agent: 'builder', verdict });
      expect(t.desktop.sent).toHaveLength(2);
    });
  });

  it('tells the person about an untrusted project policy, urgency normal', () => {
    const t = use(setup());
    t.bus.publish({
      type: 'policy.untrusted',
      project: '/work/p',
      file: '/work/p/.gatehouse.toml',
      sha256: 'ab',
      trust: 'edited',
      allows: ['git_push without asking'],
      agent: 'builder',
    });
    expect(t.desktop.sent).toHaveLength(1);
    const n = t.desktop.sent[0]!;
    expect(n.items[0]!.kind).toBe('policy_untrusted');
    expect(n.urgency).toBe('normal');
    expect(n.title).toBe('Project policy not trusted: /work/p');
    expect(n.body).toContain('was edited since you trusted it');
    expect(n.body).toContain('It would allow: git_push without asking');
    expect(n.body).toContain('gatehouse trust /work/p');
  });

  it('logs a failing channel and keeps the others going', async () => {
    const clock = new FakeClock();
    const bus = new TestBus();
    const broken = new RecordingChannel('webhook', true);
    const desktop = new RecordingChannel('desktop');
    const logged: string[] = [];
    const d = new NotificationDispatcher({
      clock,
      subscribe: bus.subscribe,
      getSettings: () =>
        makeSettings({ channels: { webhook: { enabled: true, url: 'http://x.test/' } } }),
      channels: [broken, desktop],
      log: (m) => logged.push(m),
    });
    d.start();
    expect(() => bus.publish({ type: 'request.created', request: makeRequest() })).not.toThrow();
    await Promise.resolve();
    await Promise.resolve();
    expect(desktop.sent).toHaveLength(1);
    expect(logged).toEqual(['webhook channel failed']);
    d.stop();
    expect(bus.count()).toBe(0);
  });
});

describe('NotificationDispatcher.test (the "Send test notification" button)', () => {
  it('sends through the one channel asked, even when off, and counts the outcome in its health', async () => {
    const clock = new FakeClock(Date.parse('2026-01-05T09:00:00Z'));
    const desktop = new RecordingChannel('desktop');
    const webhook = new RecordingChannel('webhook', true);
    const d = new NotificationDispatcher({
      clock,
      subscribe: new TestBus().subscribe,
      getSettings: () => makeSettings({ channels: { webhook: { enabled: false } } }),
      channels: [desktop, webhook],
      log: () => undefined,
    });
    expect(await d.test('desktop')).toEqual({ channel: 'desktop', ok: true });
    expect(desktop.sent.map((n) => [n.title, n.items.length, n.requestId])).toEqual([
      ['Gatehouse is connected', 0, undefined],
    ]);
    expect(webhook.sent).toHaveLength(0);
    expect(await d.test('webhook')).toEqual({
      channel: 'webhook',
      ok: false,
      error: 'channel down',
    });
    expect(await d.test('sms')).toMatchObject({ channel: 'sms', ok: false });
    const health = d.health();
    expect(health.find((h) => h.channel === 'desktop')?.lastDeliveryAt).toBe(
      '2026-01-05T09:00:00.000Z',
    );
    expect(health.find((h) => h.channel === 'webhook')).toMatchObject({
      state: 'disabled',
      lastError: 'channel down',
    });
  });
});
