import { spawn, type ChildProcess } from 'node:child_process';
import type { Urgency } from '../../shared/domain';
import type { DesktopNotice, DesktopNotifier } from './desktop-port';

/** What a button or a click on a notice asks for. */
export type DesktopAction = 'approve' | 'deny' | 'open';

export interface NotifySendDesktopOptions {
  /** A button was pressed on a notice about `requestId` (decide through the admin service). */
  onAction: (requestId: string, action: DesktopAction) => void;
  /** The body of a notice without a request (a digest) was clicked. */
  onOpenHome?: () => void;
  /** The body of a notice about a page elsewhere (the hub's, `url`) was clicked. */
  onOpenUrl?: (url: string) => void;
  /** Environment for notify-send (DISPLAY, DBUS_SESSION_BUS_ADDRESS); default: this process's. */
  env?: NodeJS.ProcessEnv;
  appName?: string;
  /** Seconds a low/normal notice stays up; `high` stays until dismissed. */
  expireSeconds?: number;
  /**
   * How to run notify-send (libnotify-bin). Through `stdbuf -oL` by default: notify-send's
   * stdout to a pipe is block-buffered, so without it the id would only arrive at exit.
   */
  command?: readonly string[];
  /** Notices waiting for a press at once; past this the oldest stops listening. */
  maxLive?: number;
  log?: (message: string, error?: unknown) => void;
}

const LINUX_URGENCY: Record<Urgency, string> = { low: 'low', normal: 'normal', high: 'critical' };

const escapeMarkup = (t: string): string =>
  t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Thrown when no notification service answers on the session bus (no D-Bus, no daemon). */
export class NoNotificationServiceError extends Error {}

/**
 * Desktop notices in headless mode on Linux with freedesktop actions, through libnotify's
 * `notify-send --action … --print-id`: a notice about one request has Approve and Deny
 * buttons, and a click on its body (the spec's `default` action) opens the request.
 * notify-send prints the notice's id once the server took it (then `show` resolves) and
 * later the name of the action invoked, then exits; one process per notice waits for that.
 * Servers without actions show the notice without buttons.
 */
export class NotifySendDesktop implements DesktopNotifier {
  private readonly live = new Set<ChildProcess>();

  constructor(private readonly o: NotifySendDesktopOptions) {}

  show(notice: DesktopNotice): Promise<void> {
    const { requestId, url } = notice;
    const args = [
      `--app-name=${this.o.appName ?? 'Gatehouse'}`,
      `--urgency=${LINUX_URGENCY[notice.urgency]}`,
      // 0 is "until dismissed" in the spec: a request that matters should not vanish.
      `--expire-time=${notice.urgency === 'high' ? 0 : (this.o.expireSeconds ?? 10) * 1000}`,
      '--print-id',
      '--action=default=Open',
      ...(requestId && notice.approve !== false ? ['--action=approve=Approve'] : []),
      ...(requestId ? ['--action=deny=Deny'] : []),
      '--',
      notice.title, // the summary is plain text in the spec; only the body is markup
      escapeMarkup(notice.body),
    ];
    return new Promise((resolve, reject) => {
      const [bin, ...pre] = this.o.command ?? ['stdbuf', '-oL', 'notify-send'];
      const child = spawn(bin!, [...pre, ...args], {
        env: this.o.env ?? process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let shown = false;
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8');
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
      child.stdout.on('data', (chunk: string) => {
        stdout += chunk;
        const lines = stdout.split('\n');
        stdout = lines.pop() ?? '';
        for (const line of lines.map((l) => l.trim()).filter(Boolean)) {
          if (!shown) {
            // The id; 0 means the server never took the notice (an exit code follows).
            if (/^[1-9]\d*$/.test(line)) {
              shown = true;
              this.keep(child);
              resolve();
            }
          } else this.onInvoked(line, requestId, url);
        }
      });
      child.once('error', (error: NodeJS.ErrnoException) => {
        this.live.delete(child);
        if (shown) return;
        reject(
          error.code === 'ENOENT'
            ? new NoNotificationServiceError(`${bin} not found (install libnotify-bin)`)
            : error,
        );
      });
      child.once('exit', (code) => {
        this.live.delete(child);
        if (shown) return;
        const why = stderr.trim().split('\n').at(-1) ?? '';
        reject(
          new NoNotificationServiceError(
            `no desktop notification service (notify-send exited ${code}${why ? `: ${why}` : ''})`,
          ),
        );
      });
    });
  }

  /** Notices still waiting for a press (tests, diagnostics). */
  get liveCount(): number {
    return this.live.size;
  }

  /** Stops listening for presses (the notices stay on screen). */
  stop(): void {
    for (const child of this.live) child.kill('SIGTERM');
    this.live.clear();
  }

  private onInvoked(action: string, requestId: string | undefined, url?: string): void {
    if (action === 'default') {
      if (requestId) this.o.onAction(requestId, 'open');
      else if (url) this.o.onOpenUrl?.(url);
      else this.o.onOpenHome?.();
    } else if ((action === 'approve' || action === 'deny') && requestId) {
      this.o.onAction(requestId, action);
    }
  }

  private keep(child: ChildProcess): void {
    this.live.add(child);
    const max = this.o.maxLive ?? 50;
    for (const oldest of this.live) {
      if (this.live.size <= max) break;
      oldest.kill('SIGTERM');
      this.live.delete(oldest);
    }
  }
}
