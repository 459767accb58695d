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
export const QuietHoursSettings = z.object({
  enabled: z.boolean().default(false),
  start: HHMM.default('22:00'),
  end: HHMM.default('07:00'),
});

/** An empty string, or an http(s) URL: every leaf needs a default so `config set` can reach it. */
const OptionalHttpUrl = z
  .string()
  .refine((s) => s === '' || /^https?:\/\/[^\s]+$/i.test(s), 'expected an http(s) URL or ""');

export const DesktopChannelSettings = z.object({
  enabled: z.boolean().default(true),
  minUrgency: Urgency.default('low'),
});

export const WebhookChannelSettings = z.object({
  enabled: z.boolean().default(false),
  minUrgency: Urgency.default('normal'),
  url: OptionalHttpUrl.default(''),
  /** HMAC-SHA256 key; the receiver checks `X-Gatehouse-Signature: sha256=<hex>` with it. */
  secret: z.string().default(''),
  /** Attempts in all, the first included. */
  maxAttempts: z.number().int().min(1).max(10).default(4),
  /** Wait before the second attempt; each later wait doubles, up to `maxBackoffMs`. */
  initialBackoffMs: z.number().int().min(0).max(600_000).default(1_000),
  maxBackoffMs: z.number().int().min(0).max(3_600_000).default(60_000),
  /** Per-attempt HTTP timeout. */
  timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
});

export const EmailChannelSettings = z.object({
  enabled: z.boolean().default(false),
  minUrgency: Urgency.default('high'),
  host: z.string().default(''),
  port: z.number().int().min(1).max(65_535).default(587),
  /** true: TLS from the first byte (port 465); false: STARTTLS when the server offers it. */
  secure: z.boolean().default(false),
  user: z.string().default(''),
  password: z.string().default(''),
  from: z.string().default('Gatehouse <gatehouse@localhost>'),
  /** Recipients, comma-separated. */
  to: z.string().default(''),
  /** Attempts in all for a temporary SMTP failure (4xx, connection lost). */
  maxAttempts: z.number().int().min(1).max(10).default(3),
  /** Wait before the second attempt; each later wait doubles. */
  initialBackoffMs: z.number().int().min(0).max(600_000).default(5_000),
});

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
  .describe('ntfy push notifications with Approve and Deny buttons.');

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
  .describe('SMS through Twilio.');

export const NotificationChannelsSettings = z.object({
  desktop: DesktopChannelSettings.prefault({}),
  webhook: WebhookChannelSettings.prefault({}),
  email: EmailChannelSettings.prefault({}),
  ntfy: NtfyChannelSettings.prefault({}),
  sms: SmsChannelSettings.prefault({}),
});
export type NotificationChannelsSettings = z.infer<typeof NotificationChannelsSettings>;
export type ChannelId = keyof NotificationChannelsSettings;

export const NotificationSettings = z.object({
  quietHours: QuietHoursSettings.prefault({}),
  /** Collects notifications for this long into one digest; 0 sends each at once. */
  batchIntervalMs: z
    .number()
    .int()
    .min(0)
    .max(24 * 3_600_000)
    .default(0),
  /**
   * After a session caused a notification, later ones from it within this window are held
   * and sent as one digest when it ends: a looping agent cannot flood the person.
   */
  cooldownMs: z
    .number()
    .int()
    .min(0)
    .max(24 * 3_600_000)
    .default(30_000),
  reminder: z
    .object({
      enabled: z.boolean().default(true),
      /** A request still undecided this long after it was filed is notified again. */
      afterMs: z
        .number()
        .int()
        .min(1_000)
        .max(7 * 24 * 3_600_000)
        .default(900_000),
    })
    .prefault({}),
  escalation: z
    .object({
      /** Notify when a waiting request times out (it stays in the queue). */
      enabled: z.boolean().default(true),
      urgency: Urgency.default('high'),
    })
    .prefault({}),
  sessionSummary: z
    .object({ enabled: z.boolean().default(true), urgency: Urgency.default('low') })
    .prefault({}),
  breakerTrip: z
    .object({ enabled: z.boolean().default(true), urgency: Urgency.default('high') })
    .prefault({}),
  channels: NotificationChannelsSettings.prefault({}),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;
