import type { Settings } from '../../shared/settings';
import type { Clock } from '../../shared/clock';
import { systemClock } from '../../shared/node/system-clock';
import type { AdminService } from '../server/admin-port';
import type { RequestUrl } from './compose';
import type { DesktopNotifier } from './desktop-port';
import { NotificationDispatcher } from './dispatcher';
import { createStandardChannels } from './standard-channels';
import type { LinksFor } from './request-links';
import type { NtfyButtonsFor } from './ntfy-channel';
import type { TelegramButtonsPort } from './telegram-channel';
import type { SlackButtonsPort } from './slack-channel';
import type { DiscordButtonsPort } from './discord-channel';
import type { NotificationChannel, NotifyLogger } from './types';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';

/** How many waiting requests get their reminder back after a restart (the newest). */
const RESTORED_REMINDERS = 200;

/** The longest a new request's notification waits for its picture. */
export const PICTURE_WAIT_MS = 1000;

/**
 * Wires the notifier for either mode and starts it: the three standard channels, events from
 * the admin service's stream, reminders for the requests `pending.list` returns.
 *
 * The runtime (main/runtime/start-runtime.ts) starts it for both roots, each with its desktop
 * notices: notify-send or node-notifier headless, the Electron Notification adapter in the app.
 * Call `stop()` on the returned dispatcher before the core closes.
 */
export function startNotifier(o: {
  admin: Pick<AdminService, 'invoke' | 'subscribe'>;
  /** Synchronous and cheap: read on every event (the engine's cached settings). */
  getSettings: () => Settings;
  desktop: DesktopNotifier;
  clock?: Clock;
  /** The dashboard page of a request, without its secret. */
  requestUrl?: RequestUrl;
  timeZone?: string;
  log?: NotifyLogger;
  /**
   * The signed decision links email, SMS and webhook carry, and ntfy's Approve / Deny
   * buttons (main/remote/notify-links.ts and ntfy-buttons.ts make them from the decision
   * links). Without them those channels only inform.
   */
  linksFor?: LinksFor;
  ntfyButtonsFor?: NtfyButtonsFor;
  /** Telegram's buttons and the record of its messages (main/remote/telegram-buttons.ts). */
  telegramButtons?: TelegramButtonsPort;
  /** Slack's buttons and the record of its messages (main/remote/start-slack.ts). */
  slackButtons?: SlackButtonsPort;
  /** Discord's buttons and the record of its messages (main/remote/start-discord.ts). */
  discordButtons?: DiscordButtonsPort;
  /** Replaces the standard channels (tests, benchmarks). */
  channels?: readonly NotificationChannel[];
}): NotificationDispatcher {
  const clock = o.clock ?? systemClock;
  const dispatcher = new NotificationDispatcher({
    clock,
    subscribe: (listener) => o.admin.subscribe(listener),
    getSettings: o.getSettings,
    channels:
      o.channels ??
      createStandardChannels({
        clock,
        getSettings: o.getSettings,
        desktop: o.desktop,
        ...(o.linksFor ? { linksFor: o.linksFor } : {}),
        ...(o.ntfyButtonsFor ? { ntfyButtonsFor: o.ntfyButtonsFor } : {}),
        ...(o.telegramButtons ? { telegramButtons: o.telegramButtons } : {}),
        ...(o.slackButtons ? { slackButtons: o.slackButtons } : {}),
        ...(o.discordButtons ? { discordButtons: o.discordButtons } : {}),
        ...(o.log ? { log: o.log } : {}),
      }),
    // Reminders survive a restart for the newest waiting requests only: a backlog of
    // thousands would be one reminder each, and a timer and a record each in memory.
    listPending: async () =>
      (
        await o.admin.invoke('pending.list', {
          order: 'newest',
          limit: RESTORED_REMINDERS,
        })
      ).requests,
    getRequest: async (requestId) => {
      try {
        return (await o.admin.invoke('request.get', { requestId })).request;
      } catch (error) {
        // A request pruned meanwhile has nobody to remind.
        if (error instanceof GatehouseError && error.code === ErrorCode.NotFound) return undefined;
        throw error;
      }
    },
    sessionReport: (sessionId) => o.admin.invoke('session.report', { sessionId }),
    // A request's picture is usually stored within milliseconds (a push's git takes longer):
    // its notification waits this long at most to say what the request changes.
    pictureWaitMs: PICTURE_WAIT_MS,
    ...(o.requestUrl ? { requestUrl: o.requestUrl } : {}),
    ...(o.timeZone ? { timeZone: o.timeZone } : {}),
    ...(o.log ? { log: o.log } : {}),
  });
  dispatcher.start();
  return dispatcher;
}
