/**
 * The ways back a notification sent off the machine can carry for one request. Made by the
 * capability module (main/remote): every URL holds a token signed with a key that never
 * leaves the machine, bound to the request and the channel it was sent on.
 */
export interface RequestLinks {
  /** The phone page of the request: it shows the request and decides only on a POST. */
  page: string;
  /** The phone page with Approve chosen; the person still confirms there (a POST). */
  approve: string;
  /** The phone page with Deny chosen; the person still confirms there (a POST). */
  deny: string;
  /**
   * Single-decision capabilities for machines (a webhook receiver's callback): a plain POST to
   * one of these URLs makes that decision, once. Never put into an email or SMS body, where a
   * link is clicked without a second look.
   */
  actions?: { approve: string; deny: string };
}

/** The channels that carry links, named as the audit trail records them (`link:<channel>`). */
export type LinkChannel = 'email' | 'sms' | 'webhook' | 'ntfy';

/** Links for a request, or undefined when remote links are off (then messages carry none). */
export type LinksFor = (
  requestId: string,
  channel: LinkChannel,
) => RequestLinks | undefined | Promise<RequestLinks | undefined>;
