import { z } from 'zod';
import { LinkChannel } from '../remote';

/**
 * Decision links (docs/notifications.md, "Decide from your phone"): a signed capability to decide one
 * request, opened on a phone. `gatehouse link ID` prints one.
 */
export const RequestLinkParams = z.object({
  requestId: z.string().min(1),
  /** Where the link will be sent; a decision through it records `link:<channel>`. */
  channel: LinkChannel.default('cli'),
});
export const RequestLinkResult = z.object({
  /** The phone page: GET shows the request, its buttons POST the decision. Works once. */
  url: z.string(),
  expiresAt: z.string(),
});

export const linkAdminMethods = {
  'request.link': { params: RequestLinkParams, result: RequestLinkResult, mutates: false },
} as const;
