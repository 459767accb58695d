import type { NotificationConstructorOptions } from 'electron';
import type { Urgency } from '../../shared/domain';
import type { DesktopNotice, DesktopNotifier } from '../notify/desktop-port';

/** The part of Electron's Notification used here; a fake stands in for it in tests. */
export interface NotificationLike {
  show(): void;
  close(): void;
  on(event: 'click' | 'close', listener: () => void): unknown;
  on(event: 'action', listener: (event: unknown, index: number) => void): unknown;
}

export interface ElectronNotifierDeps {
  /** `(options) => new Notification(options)` */
  createNotification(options: NotificationConstructorOptions): NotificationLike;
  /** `Notification.isSupported` */
  isSupported(): boolean;
  platform: NodeJS.Platform;
  /** Opens the approve window on a request (WindowService.openRequest). */
  openRequest(requestId: string): void;
  /** Opens the window on its home view, for notices about no single request (digests). */
  open(): void;
  /** Opens a page elsewhere in the browser (the hub's page of a team request). */
  openUrl?(url: string): void;
  /** Decides from a notification button (macOS only); goes through the admin service. */
  decide(requestId: string, decision: 'approve' | 'deny'): Promise<void>;
  iconPath?: string;
  onError(error: unknown): void;
}

const LINUX_URGENCY: Record<Urgency, 'low' | 'normal' | 'critical'> = {
  low: 'low',
  normal: 'normal',
  high: 'critical',
};

/**
 * The macOS actions in button order (`action` events report the index): Deny only when what
 * the request runs was cut to fit the notice (notify/compose.ts, runsShownWhole).
 */
const actionsOf = (notice: DesktopNotice): readonly ('approve' | 'deny')[] =>
  notice.approve === false ? ['deny'] : ['approve', 'deny'];

/** Notices kept alive until closed, so their click handlers are not garbage-collected. */
const MAX_LIVE = 50;

/**
 * Desktop notices in the app through Electron's Notification. A click opens the approve window
 * on the notice's request; on macOS the notice also has Approve and Deny buttons.
 */
export class ElectronNotifier implements DesktopNotifier {
  private readonly live = new Set<NotificationLike>();

  constructor(private readonly deps: ElectronNotifierDeps) {}

  async show(notice: DesktopNotice): Promise<void> {
    if (!this.deps.isSupported()) throw new Error('desktop notifications are not supported here');
    const { requestId } = notice;
    const linux = this.deps.platform === 'linux';
    const withButtons = requestId !== undefined && this.deps.platform === 'darwin';
    const notification = this.deps.createNotification({
      title: notice.title,
      // Linux notification servers read the body as markup; an agent's text must stay text.
      body: linux ? escapeMarkup(notice.body) : notice.body,
      urgency: LINUX_URGENCY[notice.urgency],
      timeoutType: notice.urgency === 'high' ? 'never' : 'default',
      ...(this.deps.iconPath ? { icon: this.deps.iconPath } : {}),
      ...(withButtons
        ? {
            actions: actionsOf(notice).map((a) => ({
              type: 'button' as const,
              text: a === 'approve' ? 'Approve once' : 'Deny',
            })),
            closeButtonText: 'Later',
          }
        : {}),
    });
    notification.on('click', () => {
      if (requestId) this.deps.openRequest(requestId);
      else if (notice.url && this.deps.openUrl) this.deps.openUrl(notice.url);
      else this.deps.open();
      this.release(notification);
    });
    notification.on('action', (_event, index) => {
      const decision = actionsOf(notice)[index];
      if (!requestId || !decision) return;
      this.deps.decide(requestId, decision).catch((error: unknown) => this.deps.onError(error));
      this.release(notification);
    });
    notification.on('close', () => this.release(notification));
    this.keep(notification);
    notification.show();
  }

  /** How many notices are held for their click handlers (for tests and diagnostics). */
  get liveCount(): number {
    return this.live.size;
  }

  private keep(notification: NotificationLike): void {
    this.live.add(notification);
    // Some Linux servers never report a close; drop the oldest rather than grow forever.
    for (const oldest of this.live) {
      if (this.live.size <= MAX_LIVE) break;
      this.live.delete(oldest);
    }
  }

  private release(notification: NotificationLike): void {
    this.live.delete(notification);
  }
}

const escapeMarkup = (t: string): string =>
  t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
