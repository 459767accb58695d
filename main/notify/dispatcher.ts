import {
  isWaitingForYou,
  urgencyAtLeast,
  type RequestRecord,
  type SessionSummary,
} from '../../shared/domain';
import type { GatehouseEvent } from '../../shared/events';
import type { Settings } from '../../shared/settings';
import { iso, type Clock } from '../../shared/clock';
import { Batcher } from './batcher';
import { ChannelHealthTracker, ChannelUnavailableError } from './channel-health';
import type { ChannelHealth } from '../../shared/protocol/admin-methods';
import {
  breakerTripItem,
  escalationItem,
  newRequestItem,
  policyUntrustedItem,
  reminderItem,
  sessionSummaryItem,
  SUMMARY_SHOWN_CHARS,
  type RequestUrl,
} from './compose';
import { toOutgoing } from './digest';
import { testNotification } from './test-notification';
import type { NotificationsTestResult } from '../../shared/protocol/notify-methods';
import type { ChannelId } from '../../shared/settings/notifications';
import { isQuietAt, msUntilQuietEnds } from './quiet-hours';
import { QuietHold } from './quiet-hold';
import { ReminderScheduler } from './reminders';
import { SessionCooldown } from './session-cooldown';
import { isUrgent, UrgentFloodLimit } from './urgent-flood';
import {
  consoleNotifyLogger,
  type DigestReason,
  type NotificationChannel,
  type NotificationItem,
  type NotifyLogger,
} from './types';

/** What the dispatcher needs from its surroundings; the composition root passes these in. */
export interface NotificationDispatcherDeps {
  clock: Clock;
  /** Subscribes to committed engine events (the event bus); returns the unsubscribe function. */
  subscribe: (listener: (event: GatehouseEvent) => void) => () => void;
  /** Current settings; read on every event so that changes apply at once. */
  getSettings: () => Settings;
  channels: readonly NotificationChannel[];
  /**
   * The Markdown report of a session (`session.report`). When given, the summary of a long
   * session carries it as an attachment: the notification shows only the start of the text.
   */
  sessionReport?: (sessionId: string) => Promise<{ markdown: string; filename: string }>;
  /**
   * Undecided requests (pending or timed out) as the store knows them. When given, reminders
   * are scheduled for them at start (so they survive a restart) and a reminder is only sent for
   * a request still in this list.
   */
  listPending?: () => readonly RequestRecord[] | Promise<readonly RequestRecord[]>;
  /**
   * One request as the store knows it now. When given, a due reminder reads only its own
   * request instead of listing the queue (which grows with it: one list per reminder made a
   * restart with a long queue quadratic).
   */
  getRequest?: (requestId: string) => Promise<RequestRecord | undefined>;
  /** The dashboard page of a request, without any secret (notifications may leave the machine). */
  requestUrl?: RequestUrl;
  /** IANA time zone for quiet hours; default: the process's local time zone. */
  timeZone?: string;
  log?: NotifyLogger;
}

/** Longer than what a summary notification shows (it clips at 1000 characters). */
const isLongSummary = (summary: SessionSummary): boolean =>
  summary.text.length > SUMMARY_SHOWN_CHARS ||
  (summary.needsReviewTotal ?? summary.needsReview.length) > 10;

const isUndecided = (r: RequestRecord): boolean => isWaitingForYou(r.status);

/**
 * Turns engine events into notifications and hands them to the channels.
 *
 * Path of an item: quiet hours (below `high` is held until they end) → per-session cooldown
 * (held into the window's digest) → batching (held for the interval) → every enabled channel
 * whose minimum urgency the item meets. An urgent item (`high`, or a critical request) skips
 * all three and goes at once, unless its session already sent 5 in the last minute (then it
 * waits for the flood digest); it still opens the session's cooldown window. Held items about a request that gets decided are
 * dropped. Nothing here throws into the event bus: failures are logged.
 */
export class NotificationDispatcher {
  private readonly clock: Clock;
  private readonly log: NotifyLogger;
  private readonly quiet: QuietHold;
  private readonly cooldown: SessionCooldown;
  private readonly batcher: Batcher;
  private readonly urgentFlood: UrgentFloodLimit;
  private readonly healthTracker: ChannelHealthTracker;
  private readonly reminders: ReminderScheduler;
  private unsubscribe: (() => void) | undefined;
  private seq = 0;

  /** Adds the session's report to its summary; without it when the report cannot be had. */
  private async withReport(item: NotificationItem, sessionId: string): Promise<NotificationItem> {
    try {
      const report = await this.deps.sessionReport!(sessionId);
      return {
        ...item,
        attachment: {
          filename: report.filename,
          contentType: 'text/markdown; charset=utf-8',
          content: report.markdown,
        },
      };
    } catch (error) {
      this.log(`could not attach the report of ${sessionId}`, error);
      return item;
    }
  }

  constructor(private readonly deps: NotificationDispatcherDeps) {
    this.clock = deps.clock;
    this.log = deps.log ?? consoleNotifyLogger;
    this.quiet = new QuietHold(
      this.clock,
      () => {
        const now = this.clock.now();
        const hours = this.settings().quietHours;
        return isQuietAt(now, hours, deps.timeZone)
          ? msUntilQuietEnds(now, hours, deps.timeZone)
          : undefined;
      },
      (items) => this.toBatch(items, 'quiet_hours_end'),
    );
    this.cooldown = new SessionCooldown(
      this.clock,
      () => this.settings().cooldownMs,
      (items) => this.toBatch(items, 'cooldown'),
    );
    this.batcher = new Batcher(this.clock, (items) => this.deliver(items, 'batch'));
    this.healthTracker = new ChannelHealthTracker(this.clock);
    this.urgentFlood = new UrgentFloodLimit(this.clock, (items) => this.deliver(items, 'flood'));
    this.reminders = new ReminderScheduler(this.clock, (r) => void this.remind(r));
  }

  /** Subscribes to the events and schedules reminders for requests already waiting. */
  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.deps.subscribe((event) => this.onEvent(event));
    const { listPending } = this.deps;
    if (!listPending || !this.settings().reminder.enabled) return;
    Promise.resolve()
      .then(listPending)
      .then((pending) => {
        const afterMs = this.settings().reminder.afterMs;
        for (const r of pending) if (isUndecided(r)) this.reminders.schedule(r, afterMs);
      })
      .catch((error: unknown) => this.log('could not list pending requests for reminders', error));
  }

  /** Unsubscribes and drops everything held; nothing is sent after this. */
  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.reminders.stop();
    this.quiet.stop();
    this.cooldown.stop();
    this.batcher.stop();
    this.urgentFlood.stop();
  }

  /** How many items wait in each holding place (for status views and tests). */
  held(): { quiet: number; cooldown: number; batch: number; flood: number; reminders: number } {
    return {
      quiet: this.quiet.heldCount(),
      cooldown: this.cooldown.heldCount(),
      batch: this.batcher.heldCount(),
      flood: this.urgentFlood.heldCount(),
      reminders: this.reminders.scheduledCount(),
    };
  }

  /** Each channel's last delivery and last error, and whether the settings enable it. */
  health(): ChannelHealth[] {
    const config = this.settings().channels;
    return this.healthTracker.report(
      this.deps.channels.map((c) => ({ id: c.id, enabled: config[c.id].enabled })),
    );
  }

  /** A chat app's way back came up or failed (shown in the channel's health). */
  wayBack(channelId: ChannelId, state: { up: boolean; error?: string }): void {
    this.healthTracker.wayBack(channelId, state);
  }

  /**
   * Sends the test notification through one channel, as a request's would go (retries
   * included), whether or not the settings enable it: the person asked for it. The outcome
   * counts in the channel's health like any delivery.
   */
  async test(channelId: ChannelId): Promise<NotificationsTestResult> {
    const channel = this.deps.channels.find((c) => c.id === channelId);
    if (!channel) return { channel: channelId, ok: false, error: 'no such channel runs here' };
    const id = `test${this.clock.now().toString(36)}-${(++this.seq).toString(36)}`;
    try {
      await channel.send(testNotification(id));
      this.healthTracker.delivered(channelId);
      return { channel: channelId, ok: true };
    } catch (error) {
      this.healthTracker.failed(channelId, error);
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
      return { channel: channelId, ok: false, error: message };
    }
  }

  /** Handles one event; public so a composition root without a bus can feed events in. */
  onEvent(event: GatehouseEvent): void {
    try {
      this.handle(event);
    } catch (error) {
      this.log(`failed to handle ${event.type}`, error);
    }
  }

  private settings(): Settings['notifications'] {
    return this.deps.getSettings().notifications;
  }

  private handle(event: GatehouseEvent): void {
    const s = this.settings();
    const now = iso(this.clock.now());
    switch (event.type) {
      case 'request.created': {
        const r = event.request;
        if (r.status !== 'pending') return; // decided by policy, a rule or a grant: nobody to ask
        this.submit(newRequestItem(r, this.deps.requestUrl));
        if (s.reminder.enabled) this.reminders.schedule(r, s.reminder.afterMs);
        return;
      }
      case 'request.timed_out':
        if (s.escalation.enabled) {
          this.submit(
            escalationItem(event.request, now, s.escalation.urgency, this.deps.requestUrl),
          );
        }
        return;
      case 'request.decided':
      case 'request.cancelled':
        this.forget(event.request.requestId);
        return;
      case 'session.ended':
        if (s.sessionSummary.enabled) {
          const item = sessionSummaryItem(event.session, event.summary, s.sessionSummary.urgency);
          if (isLongSummary(event.summary) && this.deps.sessionReport) {
            void this.withReport(item, event.session.sessionId).then((i) => this.submit(i));
          } else this.submit(item);
        }
        return;
      case 'guard.tripped':
        if (s.breakerTrip.enabled) {
          const { verdict, agent, sessionId } = event;
          this.submit(breakerTripItem(verdict, now, s.breakerTrip.urgency, agent, sessionId));
        }
        return;
      case 'policy.untrusted':
        this.submit(policyUntrustedItem(event, now, event.agent, event.sessionId));
        return;
      case 'settings.changed':
        // The settings service may publish before its cached copy is swapped; look after it.
        queueMicrotask(() => this.quiet.recheck());
        return;
      default:
        return;
    }
  }

  private forget(requestId: string): void {
    this.reminders.cancel(requestId);
    const matches = (i: NotificationItem): boolean => i.requestId === requestId;
    this.quiet.drop(matches);
    this.cooldown.drop(matches);
    this.batcher.drop(matches);
    this.urgentFlood.drop(matches);
  }

  private async remind(request: RequestRecord): Promise<void> {
    try {
      const s = this.settings();
      if (!s.reminder.enabled) return;
      let current: RequestRecord | undefined = request;
      if (this.deps.getRequest) current = await this.deps.getRequest(request.requestId);
      else if (this.deps.listPending) {
        const pending = await this.deps.listPending();
        current = pending.find((r) => r.requestId === request.requestId);
      }
      if (!current || !isUndecided(current)) return;
      this.submit(reminderItem(current, iso(this.clock.now()), this.deps.requestUrl));
    } catch (error) {
      this.log(`reminder for ${request.requestId} failed`, error);
    }
  }

  private submit(item: NotificationItem): void {
    if (isUrgent(item)) {
      // Never held by quiet hours, the cooldown or batching; only by the urgent flood limit.
      this.cooldown.note(item);
      if (this.urgentFlood.admit(item)) this.deliver([item]);
      return;
    }
    const hours = this.settings().quietHours;
    if (isQuietAt(this.clock.now(), hours, this.deps.timeZone)) {
      this.quiet.hold(item);
      return;
    }
    if (!this.cooldown.admit(item)) return;
    this.toBatch([item]);
  }

  private toBatch(items: NotificationItem[], reason?: DigestReason): void {
    const interval = this.settings().batchIntervalMs;
    if (interval > 0) this.batcher.add(items, interval);
    else this.deliver(items, reason);
  }

  private deliver(items: readonly NotificationItem[], reason?: DigestReason): void {
    const channels = this.settings().channels;
    const id = `n${this.clock.now().toString(36)}-${(++this.seq).toString(36)}`;
    for (const channel of this.deps.channels) {
      const config = channels[channel.id];
      if (!config.enabled) continue;
      const fit = items.filter((i) => urgencyAtLeast(i.urgency, config.minUrgency));
      if (fit.length === 0) continue;
      const failed = (error: unknown): void => {
        this.healthTracker.failed(channel.id, error);
        // An unavailable channel said so once itself.
        if (!(error instanceof ChannelUnavailableError))
          this.log(`${channel.id} channel failed`, error);
      };
      try {
        channel
          .send(toOutgoing(id, fit, reason))
          .then(() => this.healthTracker.delivered(channel.id), failed);
      } catch (error) {
        failed(error);
      }
    }
  }
}
