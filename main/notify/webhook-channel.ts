import type { z } from 'zod';
import type { WebhookChannelSettings } from '../../shared/settings/notifications';
import type { Clock } from '../../shared/clock';
import { withRetries } from './backoff';
import type { LinksFor, RequestLinks } from './request-links';
import type { NotificationChannel, NotifyLogger, OutgoingNotification } from './types';
import { consoleNotifyLogger } from './types';
import { SIGNATURE_HEADER, signWebhookBody } from './webhook-signature';

type WebhookConfig = z.infer<typeof WebhookChannelSettings>;

/** The JSON a webhook receiver gets. */
export interface WebhookPayload {
  type: 'gatehouse.notification';
  version: 1;
  /** When this delivery was first attempted (ISO-8601); receivers may reject old ones. */
  sentAt: string;
  notification: OutgoingNotification;
  /**
   * Signed links of the request the notification is about, when remote links are on: the
   * phone page, and the page with each decision chosen (confirmed there by a POST).
   */
  links?: RequestLinks;
}

/** Thrown for an answer that retrying cannot fix (4xx other than 408/429, a refused address). */
export class PermanentWebhookError extends Error {}

/**
 * POSTs each notification as signed JSON. Network errors, timeouts, 408, 429 and 5xx are
 * retried with exponential back-off on the injected clock; the body (and so its signature)
 * is the same on every attempt, and `X-Gatehouse-Delivery` lets a receiver drop duplicates.
 */
export class WebhookChannel implements NotificationChannel {
  readonly id = 'webhook' as const;
  private readonly log: NotifyLogger;

  constructor(
    private readonly deps: {
      clock: Clock;
      getConfig: () => WebhookConfig;
      fetch?: typeof fetch;
      linksFor?: LinksFor;
      log?: NotifyLogger;
    },
  ) {
    this.log = deps.log ?? consoleNotifyLogger;
  }

  async send(notification: OutgoingNotification): Promise<void> {
    const config = this.deps.getConfig();
    if (!config.url) throw new Error('webhook channel is enabled but has no url');
    const links = notification.requestId
      ? await this.deps.linksFor?.(notification.requestId, 'webhook')
      : undefined;
    const payload: WebhookPayload = {
      type: 'gatehouse.notification',
      version: 1,
      sentAt: new Date(this.deps.clock.now()).toISOString(),
      notification,
      ...(links ? { links } : {}),
    };
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': 'gatehouse-webhook/1',
      'X-Gatehouse-Delivery': notification.id,
    };
    if (config.secret) headers[SIGNATURE_HEADER] = signWebhookBody(config.secret, body);

    await withRetries(
      {
        clock: this.deps.clock,
        maxAttempts: config.maxAttempts,
        initialBackoffMs: config.initialBackoffMs,
        maxBackoffMs: config.maxBackoffMs,
        isPermanent: (error) => error instanceof PermanentWebhookError,
        log: this.log,
        label: 'webhook',
      },
      () => this.post(config, body, headers),
    );
  }

  private async post(
    config: WebhookConfig,
    body: string,
    headers: Record<string, string>,
  ): Promise<void> {
    const doFetch = this.deps.fetch ?? fetch;
    const res = await doFetch(config.url, {
      method: 'POST',
      headers,
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    // Drain the body so the connection can be reused.
    await res.arrayBuffer().catch(() => undefined);
    if (res.ok) return;
    const message = `webhook answered HTTP ${res.status}`;
    if (res.status >= 500 || res.status === 408 || res.status === 429) throw new Error(message);
    throw new PermanentWebhookError(message);
  }
}
