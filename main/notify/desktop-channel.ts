import type { Clock } from '../../shared/clock';
import { ChannelUnavailableError } from './channel-health';
import type { DesktopNotifier } from './desktop-port';
import { NoNotificationServiceError } from './notify-send-desktop';
import {
  consoleNotifyLogger,
  type NotificationChannel,
  type NotifyLogger,
  type OutgoingNotification,
} from './types';

/** How long the channel rests after finding no notification service before it tries again. */
export const DESKTOP_RETRY_MS = 5 * 60_000;

/**
 * The longest command (or target) a desktop notice offers Approve on. A notice shows two or
 * three lines of its body before it is opened (GNOME, macOS), fewer than a phone app's
 * expanded message: a longer command is approved from the window the click opens.
 */
export const DESKTOP_APPROVE_MAX_CHARS = 80;

/** Whether a person sees, at a glance, everything the notice's request runs. */
const approvableAtAGlance = (n: OutgoingNotification): boolean =>
  n.items.every((item) => {
    if (item.cut) return false;
    const runs = item.facts?.command ?? item.facts?.target ?? '';
    return runs.length <= DESKTOP_APPROVE_MAX_CHARS;
  });

/**
 * The desktop channel: one native notice per notification, through a {@link DesktopNotifier}.
 * When there is no notification service (no D-Bus session, no notification daemon) it says so
 * once, counts as unavailable and skips sending until {@link DESKTOP_RETRY_MS} passed, then
 * tries again; it says so again when notices are back.
 */
export class DesktopChannel implements NotificationChannel {
  readonly id = 'desktop' as const;
  private unavailable: { reason: string; retryAt: number } | undefined;

  constructor(
    private readonly notifier: DesktopNotifier,
    private readonly o: { clock?: Clock; log?: NotifyLogger; retryMs?: number } = {},
  ) {}

  async send(n: OutgoingNotification): Promise<void> {
    const now = this.o.clock?.now() ?? Date.now();
    if (this.unavailable && now < this.unavailable.retryAt)
      throw new ChannelUnavailableError(this.unavailable.reason);
    try {
      await this.notifier.show({
        title: n.title,
        body: n.body,
        urgency: n.urgency,
        ...(n.requestId ? { requestId: n.requestId, approve: approvableAtAGlance(n) } : {}),
      });
    } catch (error) {
      if (!(error instanceof NoNotificationServiceError || isUnsupported(error))) throw error;
      const retryMs = this.o.retryMs ?? DESKTOP_RETRY_MS;
      if (!this.unavailable) {
        (this.o.log ?? consoleNotifyLogger)(
          `desktop notifications are unavailable (${error.message}); trying again every ${Math.round(retryMs / 1000)} s`,
        );
      }
      this.unavailable = { reason: error.message, retryAt: now + retryMs };
      throw new ChannelUnavailableError(error.message);
    }
    if (this.unavailable)
      (this.o.log ?? consoleNotifyLogger)('desktop notifications are available again');
    this.unavailable = undefined;
  }
}

/** Electron's adapter says this where the platform has no notifications at all. */
const isUnsupported = (error: unknown): error is Error =>
  error instanceof Error && /not supported/i.test(error.message);
