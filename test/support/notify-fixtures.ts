import { afterEach } from 'vitest';
import type { RequestRecord } from '../../shared/domain';
import type { GatehouseEvent } from '../../shared/events';
import { Settings } from '../../shared/settings';
import type { Clock } from '../../shared/clock';
import { NotificationDispatcher } from '../../main/notify/dispatcher';
import type {
  NotificationChannel,
  NotifyLogger,
  OutgoingNotification,
} from '../../main/notify/types';
import type { ChannelId } from '../../shared/settings/notifications';
import { FakeClock } from './fake-clock';

let counter = 0;

/** A pending, ask-tier request; override what a test cares about. */
export function makeRequest(overrides: Partial<RequestRecord> = {}): RequestRecord {
  counter += 1;
  return {
    requestId: `req-${counter}`,
    sessionId: 'ses-1',
    agent: 'builder',
    action: 'git_push',
    description: 'push branch fix-login to origin',
    rationale: 'the tests pass and the fix is ready for review',
    urgency: 'normal',
    status: 'pending',
    tier: 'ask',
    rule: 'default:git_push',
    ruleReason: 'leaves the local sandbox',
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

/** Settings from defaults plus a partial `notifications` block, validated like `settings.set`. */
export function makeSettings(notifications: Record<string, unknown> = {}): Settings {
  return Settings.parse({ notifications: { cooldownMs: 0, ...notifications } });
}

/** A channel that records what it was handed. */
export class RecordingChannel implements NotificationChannel {
  readonly sent: OutgoingNotification[] = [];
  constructor(
    readonly id: ChannelId = 'desktop',
    private readonly fail = false,
  ) {}
  send(n: OutgoingNotification): Promise<void> {
    this.sent.push(n);
    return this.fail ? Promise.reject(new Error('channel down')) : Promise.resolve();
  }
}

/** A minimal bus: tests publish, the dispatcher subscribes. */
export class TestBus {
  private listeners = new Set<(e: GatehouseEvent) => void>();
  subscribe = (listener: (e: GatehouseEvent) => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  publish(event: GatehouseEvent): void {
    for (const l of this.listeners) l(event);
  }
  count(): number {
    return this.listeners.size;
  }
}

/** A started dispatcher over a test bus with the given channels, as the integration tests use it. */
export function startDispatcher(o: {
  clock: Clock;
  bus: TestBus;
  settings: Settings;
  channels: NotificationChannel[];
  log?: NotifyLogger;
  timeZone?: string;
}): NotificationDispatcher {
  const dispatcher = new NotificationDispatcher({
    clock: o.clock,
    subscribe: o.bus.subscribe,
    getSettings: () => o.settings,
    channels: o.channels,
    ...(o.log ? { log: o.log } : {}),
    ...(o.timeZone ? { timeZone: o.timeZone } : {}),
  });
  dispatcher.start();
  return dispatcher;
}

/** What a test opened and must close: run after each test of the calling file, newest first. */
export function closersAfterEach(): (() => Promise<void>)[] {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (closers.length) await closers.pop()!();
  });
  return closers;
}

/**
 * One outbound channel behind a started dispatcher, as the channel tests drive it: reminders
 * and the desktop channel off, `channels` (the one under test, with its config) on. `make`
 * builds the channel; its log and the dispatcher's go to `logged`. The dispatcher is stopped
 * through `closers`.
 */
export function startChannelDispatcher(o: {
  closers: (() => Promise<void>)[];
  channels: Record<string, unknown>;
  make: (c: { clock: FakeClock; settings: Settings; log: NotifyLogger }) => NotificationChannel;
}): { clock: FakeClock; bus: TestBus; settings: Settings; logged: string[] } {
  const clock = new FakeClock();
  const bus = new TestBus();
  const logged: string[] = [];
  const log: NotifyLogger = (m) => logged.push(m);
  const settings = makeSettings({
    reminder: { enabled: false }, // only the back-off may set timers here
    channels: { desktop: { enabled: false }, ...o.channels },
  });
  const dispatcher = startDispatcher({
    clock,
    bus,
    settings,
    channels: [o.make({ clock, settings, log })],
    log,
  });
  o.closers.push(async () => dispatcher.stop());
  return { clock, bus, settings, logged };
}
