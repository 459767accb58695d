import type { Settings } from '../../shared/settings';
import type { Clock } from '../../shared/clock';
import { DesktopChannel } from './desktop-channel';
import type { DesktopNotifier } from './desktop-port';
import { EmailChannel } from './email-channel';
import type { NotificationChannel, NotifyLogger } from './types';
import { WebhookChannel } from './webhook-channel';

/**
 * The three standard channels over live settings. Each reads its own settings on every send;
 * whether it is used at all is the dispatcher's call (`notifications.channels.<id>.enabled`).
 */
export function createStandardChannels(deps: {
  clock: Clock;
  getSettings: () => Settings;
  /** `new NodeNotifierDesktop()` headless; the Electron adapter in the desktop app. */
  desktop: DesktopNotifier;
  log?: NotifyLogger;
}): NotificationChannel[] {
  const channels = () => deps.getSettings().notifications.channels;
  return [
    new DesktopChannel(deps.desktop),
    new WebhookChannel({
      clock: deps.clock,
      getConfig: () => channels().webhook,
      ...(deps.log ? { log: deps.log } : {}),
    }),
    new EmailChannel({
      clock: deps.clock,
      getConfig: () => channels().email,
      ...(deps.log ? { log: deps.log } : {}),
    }),
  ];
}
