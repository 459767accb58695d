import nodeNotifier from 'node-notifier';
import type { Urgency } from '../../shared/domain';
import type { DesktopNotice, DesktopNotifier } from './desktop-port';

/** The part of node-notifier this adapter uses, so tests can hand in a fake. */
export interface NodeNotifierLike {
  notify(options: Record<string, unknown>, callback: (error: Error | null) => void): unknown;
}

const escapeMarkup = (t: string): string =>
  t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const LINUX_URGENCY: Record<Urgency, string> = { low: 'low', normal: 'normal', high: 'critical' };

/**
 * Desktop notices for headless mode through node-notifier: notify-send (libnotify, D-Bus) on
 * Linux, Notification Center on macOS, toasts on Windows. The body is passed as plain text;
 * node-notifier turns line breaks into a literal `\n` for notify-send, so lines are joined
 * with " · " instead.
 */
export class NodeNotifierDesktop implements DesktopNotifier {
  constructor(
    private readonly options: {
      notifier?: NodeNotifierLike;
      appName?: string;
      /** Seconds a low/normal notice stays up; `high` stays until dismissed where supported. */
      expireSeconds?: number;
      /**
       * Escape `& < >` in the body: Linux notification servers read it as markup, and an agent's text
       * must not be able to style or break it. Default: on Linux.
       */
      escapeMarkup?: boolean;
    } = {},
  ) {}

  show(notice: DesktopNotice): Promise<void> {
    const notifier = this.options.notifier ?? (nodeNotifier as unknown as NodeNotifierLike);
    const escape = this.options.escapeMarkup ?? process.platform === 'linux';
    const text = (t: string): string => (escape ? escapeMarkup(t) : t);
    const options: Record<string, unknown> = {
      title: notice.title, // the summary is plain text in the spec; only the body is markup
      message: text(notice.body.split('\n').join(' · ')),
      urgency: LINUX_URGENCY[notice.urgency],
      'app-name': this.options.appName ?? 'Gatehouse',
      wait: false,
    };
    // 0 is "until dismissed" in the notification spec; a request that matters should not vanish.
    options.time = notice.urgency === 'high' ? 0 : (this.options.expireSeconds ?? 10);
    return new Promise((resolve, reject) => {
      notifier.notify(options, (error) => {
        // node-notifier passes stderr text as the "error" of a successful run; only an Error is one.
        if (error instanceof Error) reject(error);
        else resolve();
      });
    });
  }
}
