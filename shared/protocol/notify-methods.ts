import { z } from 'zod';
import { NotificationChannelsSettings } from '../settings/notifications';

/**
 * Admin methods that set up and try notification channels: `gatehouse ntfy setup`
 * and the dashboard's "Generate topic" and "Send test notification" buttons call them, so the
 * topics are made and the test is sent by the daemon, through the channel's real code path.
 */

/** A channel of `notifications.channels`: desktop, webhook, email, ntfy or sms. */
const ChannelName = NotificationChannelsSettings.keyof();

export const NtfySetupParams = z.object({
  /** The ntfy server: ntfy.sh or your own. */
  server: z
    .string()
    .refine((s) => /^https?:\/\/[^\s]+$/i.test(s), 'expected an http(s) URL')
    .default('https://ntfy.sh'),
  /** Access token for a protected topic on your own server; "" for none; absent: keep the one set. */
  token: z.string().max(1024).optional(),
  /**
   * Also make a reply topic (Approve / Deny come back through it, no inbound port). Without
   * it the buttons POST to the signed decision link (needs dashboard.remote).
   */
  replyTopic: z.boolean().default(true),
});
export const NtfySetupResult = z.object({
  server: z.string(),
  /** The new random topic; readable by whoever knows it. */
  topic: z.string(),
  /** The new random reply topic; "" when none was asked for. */
  replyTopic: z.string(),
  /** What the phone subscribes to in the ntfy app (`<server>/<topic>`). */
  subscribeUrl: z.string(),
});

export const NotificationsTestParams = z.object({ channel: ChannelName });
export const NotificationsTestResult = z.object({
  channel: ChannelName,
  /** Whether the channel delivered the test notification. */
  ok: z.boolean(),
  /** Why it did not, in the channel's words. */
  error: z.string().optional(),
});
export type NotificationsTestResult = z.infer<typeof NotificationsTestResult>;

/**
 * Pauses a chat app's way back (Telegram's `getUpdates` poll) while a set-up reads the bot's
 * updates itself: two pollers of one bot conflict, and the set-up must not take a press. The
 * call returns once the poll has stopped; it resumes after `ms`, or at once with `ms` 0.
 */
export const ChatPauseParams = z.object({
  app: z.enum(['telegram']),
  ms: z.number().int().min(0).max(900_000),
});
export const ChatPauseResult = z.object({
  /** Whether a way back runs in this process to pause. */
  paused: z.boolean(),
});

/** A Telegram chat that wrote to the bot, as a set-up offers it to choose. */
export const TelegramChatSeen = z.object({
  chatId: z.string(),
  /** The person who wrote: the one allowed to decide once the chat is chosen. */
  userId: z.string(),
  username: z.string().optional(),
  name: z.string().optional(),
  /** Whether their message was `/start` (the set-up asks for it). */
  sentStart: z.boolean(),
});
export type TelegramChatSeen = z.infer<typeof TelegramChatSeen>;

/**
 * The chats that wrote to the saved bot (`getUpdates`, never confirmed): the daemon pauses its
 * own poll meanwhile, waits up to `waitS` for someone to send `/start`, and answers what it saw.
 */
export const ChatTelegramChatsParams = z.object({
  waitS: z.number().int().min(0).max(120).default(60),
});
export const ChatTelegramChatsResult = z.object({
  /** The bot's @name, to tell the person whom to write to. */
  bot: z.string(),
  chats: z.array(TelegramChatSeen),
});

/**
 * Makes a chat that wrote to the bot the one requests go to, its writer the one allowed to
 * decide, and turns the channel on: one settings write. Refused unless the chat is among those
 * the last `chat.telegramChats` found, with that writer.
 */
export const ChatTelegramUseParams = z.object({
  chatId: z.string().regex(/^-?\d{1,20}$/),
  userId: z.string().regex(/^\d{1,20}$/),
});
export const ChatTelegramUseResult = z.object({ chatId: z.string(), userId: z.string() });

export const notifyAdminMethods = {
  'ntfy.setup': { params: NtfySetupParams, result: NtfySetupResult, mutates: true },
  // Sends a message off the machine: never reachable by a GET.
  'notifications.test': {
    params: NotificationsTestParams,
    result: NotificationsTestResult,
    mutates: true,
  },
  'chat.pause': { params: ChatPauseParams, result: ChatPauseResult, mutates: true },
  // Pauses the poll and reads the bot's updates: never reachable by a GET.
  'chat.telegramChats': {
    params: ChatTelegramChatsParams,
    result: ChatTelegramChatsResult,
    mutates: true,
  },
  'chat.telegramUse': {
    params: ChatTelegramUseParams,
    result: ChatTelegramUseResult,
    mutates: true,
  },
} as const;
