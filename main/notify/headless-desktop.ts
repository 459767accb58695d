import { spawn } from 'node:child_process';
import type { DesktopNotifier } from './desktop-port';
import { NodeNotifierDesktop } from './node-notifier-desktop';
import { NotifySendDesktop } from './notify-send-desktop';
import type { NotifyLogger } from './types';

/**
 * The desktop notifier of headless mode. On Linux: notify-send with freedesktop actions
 * (Approve, Deny, and a click on the body opens the request); elsewhere node-notifier, whose
 * notices open nothing. `decide` goes through the admin service with channel `desktop`.
 */
export function headlessDesktop(o: {
  env: NodeJS.ProcessEnv;
  decide: (requestId: string, decision: 'approve' | 'deny') => Promise<void>;
  /** The page of a request (the dashboard), to open on a click; undefined: nothing opens. */
  requestUrl?: (requestId: string) => string | undefined;
  log: NotifyLogger;
  platform?: NodeJS.Platform;
}): DesktopNotifier & { stop(): void } {
  if ((o.platform ?? process.platform) !== 'linux') {
    return Object.assign(new NodeNotifierDesktop(), { stop: () => undefined });
  }
  const openUrl = (url: string): void => {
    const child = spawn('xdg-open', [url], { env: o.env, stdio: 'ignore', detached: true });
    child.on('error', (error) => o.log('could not open the request', error));
    child.unref();
  };
  return new NotifySendDesktop({
    env: o.env,
    log: o.log,
    // The hub's page of a team request: only the linked hub sends one (after proving its key).
    onOpenUrl: openUrl,
    onAction: (requestId, action) => {
      if (action === 'open') {
        const url = o.requestUrl?.(requestId);
        if (url) openUrl(url);
        return;
      }
      o.decide(requestId, action).catch((error: unknown) =>
        o.log(`could not ${action} ${requestId} from the desktop notification`, error),
      );
    },
  });
}
