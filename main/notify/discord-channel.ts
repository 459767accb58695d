import type { z } from 'zod';
import type { ChatChannelDeps } from './chat-channel-deps';
import type { DiscordChannelSettings } from '../../shared/settings/notifications';
import { visible } from '../../shared/request-picture/picture-text';
import { chatSubject, sendWithRetries } from './chat-send';
import { ntfyMessageOf } from './ntfy-channel';
import {
  DiscordApi,
  DiscordApiError,
  type DiscordActionRow,
  type DiscordEmbed,
} from './discord-api';
import {
  consoleNotifyLogger,
  type NotificationChannel,
  type NotifyLogger,
  type OutgoingNotification,
} from './types';

export type DiscordConfig = z.infer<typeof DiscordChannelSettings>;

/** The buttons of one request's message, the picture's lines, and the record of what was posted. */
export interface DiscordButtonsPort {
  /** The action rows (custom_id: a MAC'd id of a stored single-use button) and extra fields. */
  messageFor(
    requestId: string,
  ): Promise<{ components: DiscordActionRow[]; fields: NonNullable<DiscordEmbed['fields']> }>;
  /** The test message's one button: a press answers, decides nothing. */
  testComponents(): DiscordActionRow[];
  posted(requestId: string, channelId: string, messageId: string, embed: DiscordEmbed): void;
}

/**
 * Text an agent wrote, shown literally in Discord's markdown: every markdown character is
 * escaped (a masked link `[Approve](https://…)` or a heading must not be rendered), and
 * control characters but the line break are made visible.
 */
export function discordLiteral(text: string): string {
  return text
    .split('\n')
    .map((line) => visible(line).replace(/[\\*_~`|>[\]()#@<:]/g, (ch) => `\\${ch}`))
    .join('\n');
}

/** Embed colours by urgency: grey, blue, orange, red. */
const COLOR: Record<string, number> = {
  low: 0x95a5a6,
  normal: 0x3498db,
  high: 0xe67e22,
  critical: 0xe74c3c,
};

/**
 * Posts notifications to a Discord channel (`POST /channels/{id}/messages`): an embed with
 * what and why, command, agent, project, risk (and the picture's files or commits), and an
 * action row of Approve / Deny buttons on a message about one request. Mentions are never
 * parsed (what an agent wrote pings nobody). Retries temporary failures (network, 429 after
 * `retry_after`, 5xx) on the injected clock.
 */
export class DiscordChannel implements NotificationChannel {
  readonly id = 'discord' as const;
  private readonly log: NotifyLogger;
  private readonly api: DiscordApi;

  constructor(private readonly deps: ChatChannelDeps<DiscordConfig, DiscordButtonsPort>) {
    this.log = deps.log ?? consoleNotifyLogger;
    this.api = new DiscordApi(() => deps.getConfig(), deps.fetch);
  }

  async send(n: OutgoingNotification): Promise<void> {
    const config = this.deps.getConfig();
    if (!config.botToken || !config.channelId)
      throw new Error('discord channel is enabled but has no bot token or channel id');
    const { sole, requestId, isTest } = chatSubject(n);
    const extra =
      requestId && this.deps.buttons ? await this.deps.buttons.messageFor(requestId) : undefined;
    const embed: DiscordEmbed = {
      title: discordLiteral(n.title).slice(0, 256),
      description: discordLiteral(sole ? ntfyMessageOf(sole) : n.body).slice(0, 4096),
      color: COLOR[n.items[0]?.risk === 'critical' ? 'critical' : n.urgency] ?? COLOR.normal!,
      fields: [
        ...(sole?.risk ? [{ name: 'Risk', value: discordLiteral(sole.risk), inline: true }] : []),
        ...(extra?.fields ?? []),
      ].slice(0, 25),
    };
    const components = extra
      ? extra.components
      : isTest && this.deps.buttons
        ? this.deps.buttons.testComponents()
        : [];
    const sent = await sendWithRetries(
      this.deps,
      this.log,
      'discord',
      (e) =>
        e instanceof DiscordApiError &&
        (e.status === 0 || (e.status >= 400 && e.status < 500 && e.status !== 429)),
      () =>
        this.api.createMessage(config.channelId, {
          embeds: [embed],
          components,
          allowed_mentions: { parse: [] },
        }),
    );
    if (requestId && components.length)
      this.deps.buttons?.posted(requestId, config.channelId, sent.id, embed);
  }
}
