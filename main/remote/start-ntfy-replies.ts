import { join } from 'node:path';
import type { GatehouseEvent } from '../../shared/events';
import type { Settings } from '../../shared/settings';
import type { Clock } from '../../shared/clock';
import { systemClock } from '../../shared/node/system-clock';
import { consoleNotifyLogger, type NotifyLogger } from '../notify/types';
import type { LinkDecider } from './link-decider';
import { FileNtfyCursor } from './ntfy-cursor';
import { NtfyReplyListener } from './ntfy-replies';

/**
 * Starts the reply-topic way back for a composition root (daemon.ts, electron-main.ts): follows
 * `notifications.channels.ntfy.replyTopic` while it is set and the channel enabled, and
 * redeems each message as a one-decision token through the link decider (transport
 * `reply-topic`; the decision records `link:ntfy`). Follows settings changes.
 */
export function startNtfyReplies(o: {
  home: string;
  getSettings: () => Settings;
  subscribe: (listener: (event: GatehouseEvent) => void) => () => void;
  decider: Pick<LinkDecider, 'redeemAction'>;
  clock?: Clock;
  log?: NotifyLogger;
  /** Told each time the subscription opens (benchmarks and tests wait for it). */
  onOpen?: (since: string) => void;
}): { stop(): Promise<void> } {
  const log = o.log ?? consoleNotifyLogger;
  const listener = new NtfyReplyListener({
    clock: o.clock ?? systemClock,
    getConfig: () => o.getSettings().notifications.channels.ntfy,
    redeem: (token) => o.decider.redeemAction(token, 'reply-topic'),
    cursorFor: (topic) => new FileNtfyCursor(join(o.home, 'ntfy-reply-cursor.json'), topic),
    log,
    ...(o.onOpen ? { onOpen: o.onOpen } : {}),
  });
  const sync = (): void => void listener.sync().catch((e: unknown) => log('ntfy replies', e));
  const unsubscribe = o.subscribe((event) => {
    // The settings service may publish before its cached copy is swapped; look after it.
    if (event.type === 'settings.changed') queueMicrotask(sync);
  });
  sync();
  return {
    async stop() {
      unsubscribe();
      await listener.stop();
    },
  };
}
