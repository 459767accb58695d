import type { ChatChannelDeps } from './chat-channel-deps';
import { withRetries } from './backoff';
import type { NotificationItem, OutgoingNotification } from './types';

/**
 * What a chat app's message is about: the notification's one item when it has exactly one,
 * the request it decides when that item is a request (then the message carries buttons), and
 * whether it is the test message (no items at all, see test-notification.ts), which gets a
 * button that proves presses come back.
 */
export interface ChatSubject {
  sole?: NotificationItem;
  requestId?: string;
  isTest: boolean;
}

export function chatSubject(n: OutgoingNotification): ChatSubject {
  const [first] = n.items;
  const sole = n.items.length === 1 ? first : undefined;
  const requestId = sole?.kind === 'request' ? n.requestId : undefined;
  return {
    ...(sole ? { sole } : {}),
    ...(requestId ? { requestId } : {}),
    isTest: n.items.length === 0,
  };
}

/** The wait a chat app's 429 asked for: each app's API error carries it as `retryAfterS`. */
export function retryAfterMs(error: unknown): number | undefined {
  const s =
    error instanceof Error && 'retryAfterS' in error
      ? (error as { retryAfterS?: unknown }).retryAfterS
      : undefined;
  return typeof s === 'number' && s >= 0 ? s * 1000 : undefined;
}

/**
 * Runs one chat API call the way every chat channel does: temporary failures (network, a 429
 * waiting what the app's 429 asked, 5xx) are retried with back-off on the injected clock, up to the
 * channel's attempts; `isPermanent` says which of the app's errors another attempt cannot fix.
 */
export function sendWithRetries<T>(
  deps: Pick<ChatChannelDeps<unknown, unknown>, 'clock' | 'maxAttempts' | 'initialBackoffMs'>,
  log: NonNullable<ChatChannelDeps<unknown, unknown>['log']>,
  label: string,
  isPermanent: (e: unknown) => boolean,
  call: () => Promise<T>,
): Promise<T> {
  return withRetries(
    {
      clock: deps.clock,
      maxAttempts: deps.maxAttempts ?? 4,
      initialBackoffMs: deps.initialBackoffMs ?? 1_000,
      maxBackoffMs: 30_000,
      isPermanent,
      askedWaitMs: retryAfterMs,
      log,
      label,
    },
    call,
  );
}
