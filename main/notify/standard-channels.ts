import type { Settings } from '../../shared/settings';
import type { Clock } from '../../shared/clock';
import { DesktopChannel } from './desktop-channel';
import type { DesktopNotifier } from './desktop-port';
import { EmailChannel } from './email-channel';
import type { LinksFor } from './request-links';
import { NtfyChannel, type NtfyButtonsFor } from './ntfy-channel';
import { SmsChannel } from './sms-channel';
import { TelegramChannel, type TelegramButtonsPort } from './telegram-channel';
import { SlackChannel, type SlackButtonsPort } from './slack-channel';
import { DiscordChannel, type DiscordButtonsPort } from './discord-channel';
import type { NotificationChannel, NotifyLogger } from './types';
import { WebhookChannel } from './webhook-channel';

/**
 * The standard channels over live settings. Each reads its own settings on every send;
 * whether it is used at all is the dispatcher's call (`notifications.channels.<id>.enabled`).
 */
export function createStandardChannels(deps: {
  clock: Clock;
  getSettings: () => Settings;
  /** `new NodeNotifierDesktop()` headless; the Electron adapter in the desktop app. */
  desktop: DesktopNotifier;
  /** Signed decision links (main/remote); without them messages off the machine only inform. */
  linksFor?: LinksFor;
  /** The Approve / Deny buttons of an ntfy notification (main/remote/ntfy-buttons.ts). */
  ntfyButtonsFor?: NtfyButtonsFor;
  /** The Approve / Deny buttons of a Telegram message (main/remote/telegram-buttons.ts). */
  telegramButtons?: TelegramButtonsPort;
  /** The Approve / Deny buttons of a Slack message (main/remote/start-slack.ts). */
  slackButtons?: SlackButtonsPort;
  /** The buttons and picture of a Discord message (main/remote/start-discord.ts). */
  discordButtons?: DiscordButtonsPort;
  log?: NotifyLogger;
}): NotificationChannel[] {
  const channels = () => deps.getSettings().notifications.channels;
  const common = {
    clock: deps.clock,
    ...(deps.log ? { log: deps.log } : {}),
  };
  const links = deps.linksFor ? { linksFor: deps.linksFor } : {};
  return [
    new DesktopChannel(deps.desktop, common),
    new WebhookChannel({ ...common, ...links, getConfig: () => channels().webhook }),
    new EmailChannel({ ...common, ...links, getConfig: () => channels().email }),
    new NtfyChannel({
      ...common,
      getConfig: () => channels().ntfy,
      ...(deps.ntfyButtonsFor ? { buttonsFor: deps.ntfyButtonsFor } : {}),
    }),
    new SmsChannel({ ...common, ...links, getConfig: () => channels().sms }),
    new TelegramChannel({
      ...common,
      getConfig: () => channels().telegram,
      ...(deps.telegramButtons ? { buttons: deps.telegramButtons } : {}),
    }),
    new SlackChannel({
      ...common,
      getConfig: () => channels().slack,
      ...(deps.slackButtons ? { buttons: deps.slackButtons } : {}),
    }),
    new DiscordChannel({
      ...common,
      getConfig: () => channels().discord,
      ...(deps.discordButtons ? { buttons: deps.discordButtons } : {}),
    }),
  ];
}
