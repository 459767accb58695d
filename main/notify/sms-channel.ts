import type { z } from 'zod';
import type { SmsChannelSettings } from '../../shared/settings/notifications';
import type { Clock } from '../../shared/clock';
import { withRetries } from './backoff';
import type { LinksFor } from './request-links';
import {
  consoleNotifyLogger,
  type NotificationChannel,
  type NotifyLogger,
  type OutgoingNotification,
} from './types';

type SmsConfig = z.infer<typeof SmsChannelSettings>;

class PermanentSmsError extends Error {}

/** One SMS segment holds 160 GSM characters; a link-bearing text fits in two. */
const MAX_TEXT = 300;

const clip = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/**
 * The short text: who wants what, what exactly (the request's description, shortened to what
 * the text has room for), and the signed link to the phone page (or, without remote links,
 * the command that decides at the machine). The link is never cut.
 */
export function smsTextOf(n: OutgoingNotification, link: string | undefined): string {
  const tail = link
    ? `\nDecide: ${link}`
    : n.requestId
      ? `\nDecide at the machine: gatehouse approve ${n.requestId}`
      : '';
  const urgent = n.urgency === 'high' ? 'URGENT ' : '';
  const room = MAX_TEXT - tail.length;
  const head = clip(`Gatehouse ${urgent}· ${n.title}`, room);
  // A digest's title counts its items; one request's text says what it is.
  const facts = n.items.length === 1 ? n.items[0]?.facts : undefined;
  const what = facts ? [facts.what, facts.change].filter(Boolean).join(' · ') : undefined;
  const left = room - head.length - 1;
  // Fewer than a few words would say nothing: then the title alone.
  const body = what && left >= 20 ? `${head}\n${clip(what, left)}` : head;
  return body + tail;
}

/**
 * Texts the person through Twilio's Messages API: `POST {apiBase}/2010-04-01/Accounts/{Sid}/
 * Messages.json`, HTTP basic auth (account SID and auth token), form fields `From`, `To`,
 * `Body`. Retries network failures, 429 and 5xx with back-off on the injected clock.
 */
export class SmsChannel implements NotificationChannel {
  readonly id = 'sms' as const;
  private readonly log: NotifyLogger;

  constructor(
    private readonly deps: {
      clock: Clock;
      getConfig: () => SmsConfig;
      linksFor?: LinksFor;
      fetch?: typeof fetch;
      log?: NotifyLogger;
      maxAttempts?: number;
      initialBackoffMs?: number;
    },
  ) {
    this.log = deps.log ?? consoleNotifyLogger;
  }

  async send(n: OutgoingNotification): Promise<void> {
    const c = this.deps.getConfig();
    if (!c.accountSid || !c.authToken || !c.from || !c.to)
      throw new Error('sms channel is enabled but accountSid, authToken, from or to is missing');
    const links = n.requestId ? await this.deps.linksFor?.(n.requestId, 'sms') : undefined;
    const form = new URLSearchParams({ From: c.from, To: c.to, Body: smsTextOf(n, links?.page) });
    const url = `${c.apiBase.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(c.accountSid)}/Messages.json`;
    const auth = Buffer.from(`${c.accountSid}:${c.authToken}`).toString('base64');
    await withRetries(
      {
        clock: this.deps.clock,
        maxAttempts: this.deps.maxAttempts ?? 3,
        initialBackoffMs: this.deps.initialBackoffMs ?? 2_000,
        maxBackoffMs: 30_000,
        isPermanent: (error) => error instanceof PermanentSmsError,
        log: this.log,
        label: 'sms',
      },
      async () => {
        const res = await (this.deps.fetch ?? fetch)(url, {
          method: 'POST',
          headers: {
            Authorization: `Basic ${auth}`,
            'Content-Type': 'application/x-www-form-urlencoded',
          },
          body: form.toString(),
          redirect: 'error',
          signal: AbortSignal.timeout(15_000),
        });
        const text = await res.text().catch(() => '');
        if (res.ok) return;
        // Twilio's error JSON says why ({"code":21211,"message":"Invalid 'To' Phone Number"}).
        const message = `Twilio answered HTTP ${res.status}: ${clip(text, 200)}`;
        if (res.status >= 500 || res.status === 429) throw new Error(message);
        throw new PermanentSmsError(message);
      },
    );
  }
}
