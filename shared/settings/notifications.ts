import { z } from 'zod';
import { Urgency } from '../domain';

/** Local time as `HH:MM`; `9:00` is read as `09:00`, so what people type is what is stored. */
const HHMM = z
  .string()
  .regex(
    /^([01]?\d|2[0-3]):[0-5]\d$/,
    'expected a local time from 00:00 to 23:59, e.g. 9:00 or 22:30',
  )
  .overwrite((s) => s.padStart(5, '0'));

/** Local-time window (it may span midnight, e.g. 22:00–07:00) in which only `high` gets through. */
export const QuietHoursSettings = z
  .object({
    enabled: z.boolean().default(false).meta({ title: 'Quiet hours on' }),
    start: HHMM.default('22:00').meta({ title: 'From', format: 'time' }),
    end: HHMM.default('07:00').meta({ title: 'Until', format: 'time' }),
  })
  .meta({
    title: 'Quiet hours',
    description:
      'A local-time window (it may span midnight) in which only high-urgency notifications get through; the rest wait until it ends.',
  });

/** An empty string, or an http(s) URL: every leaf needs a default so `config set` can reach it. */
const OptionalHttpUrl = z
  .string()
  .refine((s) => s === '' || /^https?:\/\/[^\s]+$/i.test(s), 'expected an http(s) URL or ""');

const minUrgency = (level: 'low' | 'normal' | 'high') =>
  Urgency.default(level).meta({
    title: 'Least urgency sent',
    description: 'Notifications below this urgency do not use this channel.',
  });
const channelOn = (on: boolean) => z.boolean().default(on).meta({ title: 'Channel on' });
const maxAttempts = (n: number) =>
  z.number().int().min(1).max(10).default(n).meta({
    title: 'Attempts',
    description: 'Attempts in all for a temporary failure, the first included.',
  });
const initialBackoff = (ms: number) =>
  z.number().int().min(0).max(600_000).default(ms).meta({
    title: 'First retry after',
    unit: 'ms',
    description: 'Wait before the second attempt; each later wait doubles.',
  });

export const DesktopChannelSettings = z
  .object({ enabled: channelOn(true), minUrgency: minUrgency('low') })
  .meta({ title: 'Desktop', description: 'Notifications of this computer’s desktop.' });

export const WebhookChannelSettings = z
  .object({
    enabled: channelOn(false),
    minUrgency: minUrgency('normal'),
    url: OptionalHttpUrl.default('').meta({
      title: 'URL',
      format: 'url',
      description: 'Where each notification is POSTed as JSON.',
    }),
    secret: z.string().default('').meta({
      title: 'Signing secret',
      format: 'secret',
      description:
        'HMAC-SHA256 key; the receiver checks X-Gatehouse-Signature: sha256=<hex> with it.',
    }),
    maxAttempts: maxAttempts(4),
    initialBackoffMs: initialBackoff(1_000),
    maxBackoffMs: z
      .number()
      .int()
      .min(0)
      .max(3_600_000)
      .default(60_000)
      .meta({ title: 'Longest wait between attempts', unit: 'ms' }),
    timeoutMs: z
      .number()
      .int()
      .min(100)
      .max(120_000)
      .default(10_000)
      .meta({ title: 'Timeout of one attempt', unit: 'ms' }),
  })
  .meta({ title: 'Webhook', description: 'A POST to a URL of yours, signed with the secret.' });

export const EmailChannelSettings = z
  .object({
    enabled: channelOn(false),
    minUrgency: minUrgency('high'),
    host: z.string().default('').meta({ title: 'SMTP server' }),
    port: z.number().int().min(1).max(65_535).default(587).meta({ title: 'Port' }),
    secure: z.boolean().default(false).meta({
      title: 'TLS from the start',
      description:
        'On: TLS from the first byte (port 465). Off: STARTTLS when the server offers it.',
    }),
    user: z.string().default('').meta({ title: 'User name' }),
    password: z.string().default('').meta({ title: 'Password', format: 'secret' }),
    from: z.string().default('Gatehouse <gatehouse@localhost>').meta({ title: 'From' }),
    to: z.string().default('').meta({ title: 'To', description: 'Recipients, comma-separated.' }),
    maxAttempts: maxAttempts(3),
    initialBackoffMs: initialBackoff(5_000),
  })
  .meta({ title: 'Email', description: 'Mail through an SMTP server.' });

/** An ntfy topic name: what ntfy accepts in a topic URL (letters, digits, `_`, `-`; 1–64). */
const NtfyTopic = z
  .string()
  .refine(
    (s) => s === '' || /^[A-Za-z0-9_-]{1,64}$/.test(s),
    'expected letters, digits, _ or - (at most 64), or ""',
  );

export const NtfyChannelSettings = z
  .object({
    enabled: z
      .boolean()
      .default(false)
      .describe('Push each request to the ntfy app on your phone.'),
    minUrgency: Urgency.default('normal').describe(
      'Only requests at least this urgent are pushed.',
    ),
    server: z
      .string()
      .refine((s) => /^https?:\/\/[^\s]+$/i.test(s), 'expected an http(s) URL')
      .default('https://ntfy.sh')
      .describe('The ntfy server: ntfy.sh or your own.'),
    topic: NtfyTopic.default('').describe(
      'The topic your phone subscribes to. Anyone who knows it can read the notifications: use a long random name (gatehouse ntfy setup makes one).',
    ),
    token: z
      .string()
      .default('')
      .describe('Access token for a protected topic (sent as Authorization: Bearer).'),
    replyTopic: NtfyTopic.default('').describe(
      'When set, the Approve and Deny buttons publish a signed single-use token to this topic and Gatehouse, subscribed to it, decides: no inbound port needed. Empty: the buttons POST to the signed decision link (needs dashboard.remote).',
    ),
  })
  .meta({ title: 'ntfy', description: 'ntfy push notifications with Approve and Deny buttons.' });

export const SmsChannelSettings = z
  .object({
    enabled: z
      .boolean()
      .default(false)
      .describe('Send a short text with the decision link through Twilio.'),
    minUrgency: Urgency.default('high').describe('Only requests at least this urgent are texted.'),
    accountSid: z.string().default('').describe('Twilio account SID (AC…).'),
    authToken: z.string().default('').describe('Twilio auth token.'),
    from: z.string().default('').describe('The Twilio number to send from, E.164 (+15551234567).'),
    to: z.string().default('').describe('Your phone number, E.164.'),
    apiBase: z
      .string()
      .refine((s) => /^https?:\/\/[^\s]+$/i.test(s), 'expected an http(s) URL')
      .default('https://api.twilio.com')
      .describe("Twilio's API base URL; change only for a test server."),
  })
  .meta({ title: 'SMS', description: 'SMS through Twilio.' });

/** A Telegram user id, as digits (the Bot API sends `from.id` as an integer; a list of text fits the settings form). */
const TelegramUserId = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, 'expected a Telegram user id (digits)');

export const TelegramChannelSettings = z
  .object({
    enabled: z
      .boolean()
      .default(false)
      .describe('Post each request to a Telegram chat with Approve and Deny buttons.'),
    minUrgency: Urgency.default('normal').describe(
      'Only requests at least this urgent are posted.',
    ),
    botToken: z.string().default('').meta({
      title: 'Bot token',
      format: 'secret',
      description: 'The bot token BotFather gave (gatehouse chat setup telegram saves it).',
    }),
    chatId: z
      .string()
      .regex(/^(-?\d{1,20}|@[A-Za-z0-9_]{5,32})?$/, 'expected a chat id or @channel, or ""')
      .default('')
      .describe('The chat the bot posts to (setup finds it from your /start).'),
    allowedUserIds: z
      .array(TelegramUserId)
      .max(100)
      .default([])
      .describe('The Telegram user ids whose button presses decide; anyone else decides nothing.'),
    apiBase: z
      .string()
      .refine((s) => /^https?:\/\/[^\s]+$/i.test(s), 'expected an http(s) URL')
      .default('https://api.telegram.org')
      .describe("The Bot API's base URL; change only for a test server."),
  })
  .meta({ title: 'Telegram', description: 'A Telegram bot that posts requests with buttons.' });

/** A Slack user id (`U…`, or `W…` in an Enterprise Grid), as Slack sends `user.id`. */
const SlackUserId = z.string().regex(/^[UW][A-Z0-9]{2,20}$/, 'expected a Slack user id (U…)');

const slackToken = (prefix: string, title: string, description: string) =>
  z
    .string()
    .refine((s) => s === '' || s.startsWith(prefix), `expected a token starting ${prefix}, or ""`)
    .default('')
    .meta({ title, format: 'secret', description });

export const SlackChannelSettings = z
  .object({
    enabled: z
      .boolean()
      .default(false)
      .describe('Post each request to a Slack channel with Approve and Deny buttons.'),
    minUrgency: Urgency.default('normal').describe(
      'Only requests at least this urgent are posted.',
    ),
    botToken: slackToken(
      'xoxb-',
      'Bot token',
      "The app's bot token, xoxb-… (gatehouse chat setup slack saves it).",
    ),
    appToken: slackToken(
      'xapp-',
      'App-level token',
      'The app-level token with connections:write, xapp-…: button presses come back over Socket Mode with it.',
    ),
    channel: z
      .string()
      .regex(/^([CGD][A-Z0-9]{2,20})?$/, 'expected a Slack channel id (C…), or ""')
      .default('')
      .describe('The id of the channel the app posts to (C…; the bot must be a member).'),
    allowedUserIds: z
      .array(SlackUserId)
      .max(100)
      .default([])
      .describe('The Slack user ids whose button presses decide; anyone else decides nothing.'),
    apiBase: z
      .string()
      .refine((s) => /^https?:\/\/[^\s]+$/i.test(s), 'expected an http(s) URL')
      .default('https://slack.com/api')
      .describe("The Web API's base URL; change only for a test server."),
  })
  .meta({ title: 'Slack', description: 'A Slack app that posts requests with buttons.' });

/** A Discord id (a snowflake), as digits: 64-bit integers are sent as text by Discord's API. */
const DiscordSnowflake = z.string().regex(/^[1-9][0-9]{0,19}$/, 'expected a Discord id (digits)');

export const DiscordChannelSettings = z
  .object({
    enabled: z
      .boolean()
      .default(false)
      .describe('Post each request to a Discord channel with Approve and Deny buttons.'),
    minUrgency: Urgency.default('normal').describe(
      'Only requests at least this urgent are posted.',
    ),
    botToken: z.string().default('').meta({
      title: 'Bot token',
      format: 'secret',
      description:
        "The bot's token from the Developer Portal (gatehouse chat setup discord saves it).",
    }),
    channelId: z
      .string()
      .regex(/^([1-9][0-9]{0,19})?$/, 'expected a Discord channel id (digits), or ""')
      .default('')
      .describe('The channel the bot posts to (Developer Mode → Copy Channel ID).'),
    allowedUserIds: z
      .array(DiscordSnowflake)
      .max(100)
      .default([])
      .describe('The Discord user ids whose button presses decide; anyone else decides nothing.'),
    apiBase: z
      .string()
      .refine((s) => /^https?:\/\/[^\s]+$/i.test(s), 'expected an http(s) URL')
      .default('https://discord.com/api/v10')
      .describe("Discord's REST API base URL; change only for a test server."),
    gatewayUrl: z
      .string()
      .refine((s) => s === '' || /^wss?:\/\/[^\s]+$/i.test(s), 'expected a ws(s) URL, or ""')
      .default('')
      .describe('The Gateway URL; empty asks the API (GET /gateway/bot). Change only for tests.'),
  })
  .meta({ title: 'Discord', description: 'A Discord bot that posts requests with buttons.' });

export const NotificationChannelsSettings = z
  .object({
    desktop: DesktopChannelSettings.prefault({}),
    webhook: WebhookChannelSettings.prefault({}),
    email: EmailChannelSettings.prefault({}),
    ntfy: NtfyChannelSettings.prefault({}),
    sms: SmsChannelSettings.prefault({}),
    telegram: TelegramChannelSettings.prefault({}),
    slack: SlackChannelSettings.prefault({}),
    discord: DiscordChannelSettings.prefault({}),
  })
  .meta({ title: 'Channels' });
export type NotificationChannelsSettings = z.infer<typeof NotificationChannelsSettings>;
export type ChannelId = keyof NotificationChannelsSettings;

/** Whether a kind of notification is sent, and how urgent it is. */
const notificationKind = (title: string, description: string, urgency: 'low' | 'high') =>
  z
    .object({
      enabled: z.boolean().default(true).meta({ title: 'Send it' }),
      urgency: Urgency.default(urgency).meta({ title: 'Urgency' }),
    })
    .meta({ title, description })
    .prefault({});

export const NotificationSettings = z
  .object({
    quietHours: QuietHoursSettings.prefault({}),
    batchIntervalMs: z
      .number()
      .int()
      .min(0)
      .max(24 * 3_600_000)
      .default(0)
      .meta({
        title: 'Batch interval',
        unit: 'ms',
        description: 'Collects notifications for this long into one digest; 0 sends each at once.',
      }),
    cooldownMs: z
      .number()
      .int()
      .min(0)
      .max(24 * 3_600_000)
      .default(30_000)
      .meta({
        title: 'Cooldown per session',
        unit: 'ms',
        description:
          'After a session caused a notification, later ones from it within this window are held and sent as one digest when it ends: a looping agent cannot flood you.',
      }),
    reminder: z
      .object({
        enabled: z.boolean().default(true).meta({ title: 'Remind me' }),
        afterMs: z
          .number()
          .int()
          .min(1_000)
          .max(7 * 24 * 3_600_000)
          .default(900_000)
          .meta({
            title: 'Remind after',
            unit: 'ms',
            description:
              'A request still undecided this long after it was filed is notified again.',
          }),
      })
      .meta({
        title: 'Reminder',
        description: 'A second notification for a request still waiting.',
      })
      .prefault({}),
    escalation: notificationKind(
      'Timed-out requests',
      'Notify when a waiting request times out (it stays in the queue).',
      'high',
    ),
    sessionSummary: notificationKind(
      'Session summaries',
      'A summary of what an agent session did, when it ends.',
      'low',
    ),
    breakerTrip: notificationKind(
      'Breaker trips',
      'Notify when a breaker or budget stops an agent.',
      'high',
    ),
    channels: NotificationChannelsSettings.prefault({}),
  })
  .meta({
    title: 'Notifications',
    description: 'When Gatehouse tells you something, and through which channels.',
  });
export type NotificationSettings = z.infer<typeof NotificationSettings>;
