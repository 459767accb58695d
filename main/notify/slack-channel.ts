import type { z } from 'zod';
import type { ChatChannelDeps } from './chat-channel-deps';
import type { SlackChannelSettings } from '../../shared/settings/notifications';
import { chatSubject, sendWithRetries } from './chat-send';
import { SlackApi, SlackApiError, type SlackBlock, type SlackButton } from './slack-api';
import { fallbackText, plainBlocks, requestBlocks } from './slack-blocks';
import {
  consoleNotifyLogger,
  type NotificationChannel,
  type NotifyLogger,
  type OutgoingNotification,
} from './types';

export type SlackConfig = z.infer<typeof SlackChannelSettings>;

/**
 * The buttons of one request's message and what to do once it is posted
 * (main/remote/start-slack.ts): each button's `value` is a MAC'd short id of a stored record
 * bound to the request and one decision; the posted message is remembered so a decision from
 * any surface can edit it.
 */
export interface SlackButtonsPort {
  /** The request's buttons and the lines of its picture (diffstat, commits) when it has one. */
  forRequest(requestId: string): Promise<{ buttons: SlackButton[]; picture: string[] }>;
  /** The test message's one button: a press answers, decides nothing. */
  testButtons(): SlackButton[];
  posted(
    requestId: string,
    channel: string,
    ts: string,
    message: { text: string; blocks: SlackBlock[] },
  ): void;
}

/**
 * Posts notifications to a Slack channel (`chat.postMessage` with Block Kit), with Approve /
 * Deny buttons on a message about one request. What an agent wrote goes in `plain_text`
 * objects and an escaped fallback text: never markup, never a mention. Retries temporary
 * failures (network, 429 after `Retry-After`, 5xx) on the injected clock.
 */
export class SlackChannel implements NotificationChannel {
  readonly id = 'slack' as const;
  private readonly log: NotifyLogger;
  private readonly api: SlackApi;

  constructor(private readonly deps: ChatChannelDeps<SlackConfig, SlackButtonsPort>) {
    this.log = deps.log ?? consoleNotifyLogger;
    this.api = new SlackApi(() => deps.getConfig(), deps.fetch);
  }

  async send(n: OutgoingNotification): Promise<void> {
    const config = this.deps.getConfig();
    if (!config.botToken || !config.channel)
      throw new Error('slack channel is enabled but has no bot token or channel');
    const { requestId, isTest } = chatSubject(n);
    const buttons = this.deps.buttons;
    let blocks: SlackBlock[];
    let decides = false;
    if (requestId) {
      const extra = buttons ? await buttons.forRequest(requestId) : { buttons: [], picture: [] };
      blocks = requestBlocks(n, extra);
      decides = extra.buttons.length > 0;
    } else blocks = plainBlocks(n, buttons && isTest ? buttons.testButtons() : []);
    const text = fallbackText(n);
    const sent = await sendWithRetries(
      this.deps,
      this.log,
      'slack',
      (e) =>
        e instanceof SlackApiError &&
        e.status !== 429 &&
        e.status < 500 &&
        e.error !== 'ratelimited',
      () => this.api.postMessage({ channel: config.channel, text, blocks }),
    );
    if (requestId && decides) buttons?.posted(requestId, sent.channel, sent.ts, { text, blocks });
  }
}
