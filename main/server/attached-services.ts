import type { MachineCheckpoint } from '../../shared/hub-protocol';
import type { ChannelHealth, HubLinkStatus } from '../../shared/protocol/admin-methods';
import type {
  NotificationsTestResult,
  TelegramChatSeen,
} from '../../shared/protocol/notify-methods';
import type { ChannelId } from '../../shared/settings/notifications';

/** The notifier as the admin methods see it (main/notify/dispatcher.ts). */
export interface AttachedNotifier {
  health(): ChannelHealth[];
  test(channel: ChannelId): Promise<NotificationsTestResult>;
}

/** The chat apps' ways back as the admin methods see them (main/remote/start-telegram.ts). */
export interface AttachedChat {
  pause(app: 'telegram', ms: number): Promise<void>;
  /** The chats that wrote to the Telegram bot, waiting up to `waitS` for a `/start`. */
  telegramChats(waitS: number): Promise<{ bot: string; chats: TelegramChatSeen[] }>;
}

/** The joined hub's copies of this machine's audit checkpoints (main/hub-link/). */
export interface AttachedHubAudit {
  url: string;
  /** Read over the link; throws when the hub cannot be reached. */
  checkpoints(): Promise<{ checkpoints: MachineCheckpoint[]; pinnedKey?: string }>;
}

/** The loopback dashboard as the admin methods and decision links see it. */
export interface AttachedDashboard {
  url(): string | undefined;
}

/**
 * What runs around the core and is asked about through it: the notifier (channel health in
 * `status`, `notifications.test`) and the dashboard (its URL in `status` and in links).
 * They are built over the core's admin service, so they cannot exist when it is made; each
 * attaches itself once started and detaches when stopped, and until then the core answers
 * as a process without one (no channels in `status`, "no notifier runs in this process").
 */
export class AttachedServices {
  private notifier?: AttachedNotifier | undefined;
  private dashboard?: AttachedDashboard | undefined;
  private hubLink?: (() => HubLinkStatus | undefined) | undefined;
  private chat?: AttachedChat | undefined;
  private hubAuditSource?: (() => AttachedHubAudit | undefined) | undefined;

  /** Attaches the running notifier; returns its detach. */
  attachNotifier(notifier: AttachedNotifier): () => void {
    this.notifier = notifier;
    return () => {
      if (this.notifier === notifier) this.notifier = undefined;
    };
  }

  /** Attaches the listening dashboard; returns its detach. */
  attachDashboard(dashboard: AttachedDashboard): () => void {
    this.dashboard = dashboard;
    return () => {
      if (this.dashboard === dashboard) this.dashboard = undefined;
    };
  }

  /** Attaches the hub link's report (main/hub-link/); returns its detach. */
  attachHubLink(report: () => HubLinkStatus | undefined): () => void {
    this.hubLink = report;
    return () => {
      if (this.hubLink === report) this.hubLink = undefined;
    };
  }

  hubLinkStatus(): HubLinkStatus | undefined {
    return this.hubLink?.();
  }

  /** Attaches the hub link's access to the hub's checkpoints; returns its detach. */
  attachHubAudit(source: () => AttachedHubAudit | undefined): () => void {
    this.hubAuditSource = source;
    return () => {
      if (this.hubAuditSource === source) this.hubAuditSource = undefined;
    };
  }

  /** The joined hub's checkpoints; undefined when this machine has not joined one. */
  hubAudit(): AttachedHubAudit | undefined {
    return this.hubAuditSource?.();
  }

  /** Attaches the running chat ways back; returns its detach. */
  attachChat(chat: AttachedChat): () => void {
    this.chat = chat;
    return () => {
      if (this.chat === chat) this.chat = undefined;
    };
  }

  /** Pauses a chat app's way back; false when none runs in this process. */
  async pauseChat(app: 'telegram', ms: number): Promise<boolean> {
    if (!this.chat) return false;
    await this.chat.pause(app, ms);
    return true;
  }

  /** The chats that wrote to the Telegram bot; undefined when no way back runs here. */
  telegramChats(waitS: number): Promise<{ bot: string; chats: TelegramChatSeen[] }> | undefined {
    return this.chat?.telegramChats(waitS);
  }

  channelHealth(): ChannelHealth[] | undefined {
    return this.notifier?.health();
  }

  testChannel(channel: ChannelId): Promise<NotificationsTestResult> | undefined {
    return this.notifier?.test(channel);
  }

  dashboardUrl(): string | undefined {
    return this.dashboard?.url();
  }
}
