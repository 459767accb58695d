import { z } from 'zod';

/**
 * Decisions from anywhere (docs/notifications.md): the shapes shared by the decision links, the phone
 * page, the admin API and the notification channels that carry links off the machine.
 */

/**
 * What a decision link may do: approve once, approve for the rest of the agent's session, or
 * deny. A button (ntfy action, reply-topic token) carries exactly one.
 */
export const LinkDecision = z.enum(['approve', 'approve_session', 'deny']);
export type LinkDecision = z.infer<typeof LinkDecision>;

/** Where a decision link was sent; a decision through it records `link:<channel>`. */
export const LinkChannel = z.enum([
  'email',
  'ntfy',
  'sms',
  'webhook',
  'desktop',
  'cli',
  'dashboard',
  'telegram',
  'slack',
  'discord',
]);
export type LinkChannel = z.infer<typeof LinkChannel>;

/** The chat apps whose buttons carry a link token back (their decisions record `chat:<app>`). */
export const CHAT_LINK_CHANNELS = ['telegram', 'slack', 'discord'] as const;
export type ChatLinkChannel = (typeof CHAT_LINK_CHANNELS)[number];

/** The decision channel a link of this channel records: `chat:<app>` or `link:<channel>`. */
export function linkDecisionChannel(
  channel: LinkChannel,
): `link:${Exclude<LinkChannel, ChatLinkChannel>}` | `chat:${ChatLinkChannel}` {
  return isChatLinkChannel(channel) ? `chat:${channel}` : `link:${channel}`;
}

/** Whether a link channel is a chat app's (its buttons decide as `chat:<app>`). */
export function isChatLinkChannel(channel: LinkChannel): channel is ChatLinkChannel {
  return (CHAT_LINK_CHANNELS as readonly string[]).includes(channel);
}
