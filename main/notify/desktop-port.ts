import type { Urgency } from '../../shared/domain';

/** What a desktop notification shows. */
export interface DesktopNotice {
  title: string;
  body: string;
  urgency: Urgency;
  /** Set when the notice is about one request: a click should open it. */
  requestId?: string;
  /**
   * False when what the request runs was cut to fit the notice: no Approve button, only Deny
   * and the click that opens it whole (notify/compose.ts, runsShownWhole).
   */
  approve?: boolean;
  /** Set when the notice is about a page elsewhere (the hub's): a click opens it. */
  url?: string;
}

/**
 * Shows a native desktop notification. Headless mode uses {@link NodeNotifierDesktop}
 * (notify-send on Linux); the Electron shell implements this with Electron's `Notification`
 * and routes a click on a notice with `requestId` to the approve window.
 */
export interface DesktopNotifier {
  /** Resolves once the notice was handed to the system; rejects when that failed. */
  show(notice: DesktopNotice): Promise<void>;
}
