import nodemailer from 'nodemailer';
import type { z } from 'zod';
import type { EmailChannelSettings } from '../../shared/settings/notifications';
import type { Clock } from '../../shared/clock';
import { withRetries } from './backoff';
import { emailHtmlOf, emailLinkLines } from './email-html';
import type { LinksFor } from './request-links';
import {
  consoleNotifyLogger,
  type NotificationChannel,
  type NotifyLogger,
  type OutgoingNotification,
} from './types';

type EmailConfig = z.infer<typeof EmailChannelSettings>;

/** The part of a nodemailer transport this channel uses. */
export interface MailTransport {
  sendMail(message: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html?: string;
    headers?: Record<string, string>;
    attachments?: { filename: string; content: string; contentType: string }[];
  }): Promise<unknown>;
  close?(): void;
}

export type CreateMailTransport = (config: EmailConfig) => MailTransport;

export const createSmtpTransport: CreateMailTransport = (config) =>
  nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.secure,
    ...(config.user ? { auth: { user: config.user, pass: config.password } } : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });

const SUBJECT_PREFIX: Record<OutgoingNotification['urgency'], string> = {
  high: '[Gatehouse URGENT] ',
  normal: '[Gatehouse] ',
  low: '[Gatehouse] ',
};

/**
 * SMTP answers 5xx for what will never work (unknown recipient, rejected sender); 4xx and
 * connection failures are worth another try.
 */
const isPermanentSmtpError = (error: unknown): boolean => {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500;
};

/**
 * Sends each notification as an email over SMTP (plain text plus a simple HTML part, with the
 * signed links to the phone page when remote links are on), retrying temporary failures with
 * back-off on the injected clock. A transport is made per message from the current settings,
 * so edited settings apply to the next one.
 */
export class EmailChannel implements NotificationChannel {
  readonly id = 'email' as const;

  constructor(
    private readonly deps: {
      clock: Clock;
      getConfig: () => EmailConfig;
      createTransport?: CreateMailTransport;
      /** Signed links to the phone page; without them the mail only informs. */
      linksFor?: LinksFor;
      log?: NotifyLogger;
    },
  ) {}

  async send(n: OutgoingNotification): Promise<void> {
    const config = this.deps.getConfig();
    if (!config.host || !config.to)
      throw new Error('email channel is enabled but has no host or to');
    const links = n.requestId ? await this.deps.linksFor?.(n.requestId, 'email') : undefined;
    const footer = `— Gatehouse (notification ${n.id}, urgency ${n.urgency})`;
    const message = {
      from: config.from,
      to: config.to,
      subject: SUBJECT_PREFIX[n.urgency] + n.title,
      text: [n.body, ...emailLinkLines(links), footer].join('\n\n') + '\n',
      html: emailHtmlOf(n, links, footer),
      headers: { 'X-Gatehouse-Notification': n.id },
      // A long session's summary carries its Markdown report.
      attachments: n.items.flatMap((i) => (i.attachment ? [i.attachment] : [])),
    };
    await withRetries(
      {
        clock: this.deps.clock,
        maxAttempts: config.maxAttempts,
        initialBackoffMs: config.initialBackoffMs,
        maxBackoffMs: config.initialBackoffMs * 8,
        isPermanent: isPermanentSmtpError,
        log: this.deps.log ?? consoleNotifyLogger,
        label: 'email',
      },
      async () => {
        const transport = (this.deps.createTransport ?? createSmtpTransport)(config);
        try {
          await transport.sendMail(message);
        } finally {
          transport.close?.();
        }
      },
    );
  }
}
