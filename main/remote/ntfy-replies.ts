import type { NtfyChannelSettings } from '../../shared/settings/notifications';
import type { z } from 'zod';
import type { Clock } from '../../shared/clock';
import { NtfySubscriber, type NtfyCursor, type NtfyStreamEvent } from './ntfy-subscriber';

type NtfyConfig = z.infer<typeof NtfyChannelSettings>;

/**
 * Redeems one reply-topic message as a decision token with channel `link:ntfy`: it verifies
 * the signature, expiry and single use and decides, or refuses and audits. Anything that is
 * not a valid token (chatter, a replay, a forgery, a token of another channel) is refused
 * there; this listener never decides by itself.
 */
export type RedeemReplyToken = (token: string) => Promise<unknown>;

export interface NtfyReplyListenerDeps {
  clock: Clock;
  /** Live ntfy settings; the listener follows `enabled`, `server`, `replyTopic`, `token`. */
  getConfig: () => NtfyConfig;
  redeem: RedeemReplyToken;
  /** Makes the resume cursor for a topic (a file in the data directory). */
  cursorFor?: (topic: string) => NtfyCursor;
  log: (message: string, error?: unknown) => void;
  fetch?: typeof fetch;
  initialBackoffMs?: number;
  /** Told each time a subscription opens (tests and benchmarks wait for it). */
  onOpen?: (since: string) => void;
}

/** A reply token is `<payload>.<mac>` in base64url; anything else is not worth a lookup. */
const MAX_REPLY_CHARS = 2048;

/**
 * The reply-topic way back: while `notifications.channels.ntfy` is enabled with a
 * `replyTopic`, follows that topic (outbound, see {@link NtfySubscriber}) and hands each
 * message to {@link RedeemReplyToken}. `sync()` after a settings change restarts it on the new
 * topic, server or token, or stops it.
 */
export class NtfyReplyListener {
  private subscriber: NtfySubscriber | undefined;
  private key: string | undefined;

  constructor(private readonly deps: NtfyReplyListenerDeps) {}

  /** Starts, restarts or stops the subscription to match the settings. */
  async sync(): Promise<void> {
    const c = this.deps.getConfig();
    const key = c.enabled && c.replyTopic ? JSON.stringify([c.server, c.replyTopic, c.token]) : '';
    if (key === (this.key ?? '')) return;
    await this.subscriber?.stop();
    this.subscriber = undefined;
    this.key = key || undefined;
    if (!key) return;
    this.subscriber = new NtfySubscriber({
      clock: this.deps.clock,
      server: c.server,
      topic: c.replyTopic,
      ...(c.token ? { token: c.token } : {}),
      onMessage: (m) => this.onMessage(m),
      ...(this.deps.cursorFor ? { cursor: this.deps.cursorFor(c.replyTopic) } : {}),
      log: this.deps.log,
      ...(this.deps.fetch ? { fetch: this.deps.fetch } : {}),
      ...(this.deps.initialBackoffMs !== undefined
        ? { initialBackoffMs: this.deps.initialBackoffMs }
        : {}),
      ...(this.deps.onOpen ? { onOpen: this.deps.onOpen } : {}),
    });
    this.subscriber.start();
  }

  async stop(): Promise<void> {
    this.key = undefined;
    await this.subscriber?.stop();
    this.subscriber = undefined;
  }

  private async onMessage(m: NtfyStreamEvent & { message: string }): Promise<void> {
    // Refused (and audited) by the redeemer like any bad token: clipped, never trusted.
    await this.deps.redeem(m.message.trim().slice(0, MAX_REPLY_CHARS + 1));
  }
}
