import type { Risk, Urgency } from '../../shared/domain';
import type { ChannelId } from '../../shared/settings/notifications';

/** What a notification is about. */
export type NotificationKind =
  'request' | 'reminder' | 'escalation' | 'session_summary' | 'breaker_trip' | 'policy_untrusted';

/** How a person can act on a request: the CLI commands and, when the dashboard runs, its page. */
export interface DecideHint {
  approve: string;
  deny: string;
  url?: string;
}

/** One thing worth telling the person: a request, a reminder, a timeout, a summary, a trip. */
export interface NotificationItem {
  kind: NotificationKind;
  urgency: Urgency;
  /** One line: who wants what. */
  title: string;
  /** What the agent wants, why, how urgent, and how to decide — readable as plain text. */
  body: string;
  /** ISO-8601 time of the event that caused it. */
  at: string;
  requestId?: string;
  sessionId?: string;
  agent?: string;
  /** What a request asks, for channels that lay it out themselves (ntfy, SMS); clipped. */
  facts?: RequestFacts;
  /** The project the request was filed in, when known. */
  project?: string;
  /** An agent call is blocked waiting for this request's decision (the queue's order). */
  blocked?: boolean;
  /** The risk the rule gave the request; `critical` is never held, like `high` urgency. */
  risk?: Risk;
  decide?: DecideHint;
  /**
   * What the request runs (its command or target) was cut to fit: no channel offers Approve on
   * it, only Deny and the link to the whole request (compose.ts, runsShownWhole).
   */
  cut?: true;
  /** A document that goes along where the channel can carry one (email, webhook). */
  attachment?: NotificationAttachment;
  /** A request's diffs (bounded, masked) for a channel that can lay them out (email HTML). */
  diff?: string;
}

/** The parts of a request a short message shows: what, why, and the command or target. */
export interface RequestFacts {
  what: string;
  action: string;
  why?: string;
  command?: string;
  target?: string;
  /** What the request changes, in one line: its diffstat, commit count, files or recipients. */
  change?: string;
}

/** A file sent with a notification: the session report of a long session, in Markdown. */
export interface NotificationAttachment {
  filename: string;
  contentType: string;
  content: string;
}

/** Why several items travel together. */
export type DigestReason = 'batch' | 'cooldown' | 'quiet_hours_end' | 'flood';

/**
 * What a channel is handed: one item, or a digest of several. `urgency` is the highest of the
 * items; `title` and `body` are ready to show as they are.
 */
export interface OutgoingNotification {
  id: string;
  urgency: Urgency;
  title: string;
  body: string;
  items: NotificationItem[];
  /** Set when `items` holds more than one entry, or when held items were released together. */
  digest?: DigestReason;
  /** The request to open on click, when the notification is about exactly one request. */
  requestId?: string;
}

/**
 * A way to reach the person. `send` may reject; the dispatcher logs the failure and never lets
 * it reach the engine.
 */
export interface NotificationChannel {
  /** Selects the channel's settings under `notifications.channels`. */
  readonly id: ChannelId;
  send(notification: OutgoingNotification): Promise<void>;
}

/** Where failures go. Channels and the dispatcher never throw into the engine. */
export type NotifyLogger = (message: string, error?: unknown) => void;

export const consoleNotifyLogger: NotifyLogger = (message, error) => {
  if (error === undefined) console.error(`gatehouse notify: ${message}`);
  else
    console.error(`gatehouse notify: ${message}:`, error instanceof Error ? error.message : error);
};
