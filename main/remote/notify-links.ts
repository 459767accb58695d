import type { LinksFor, RequestLinks } from '../notify/request-links';
import type { DecisionLinks } from './decision-links';

/**
 * The signed links the notification channels put into what they send off the machine, from
 * the decision links: the phone page offering every decision, the page with one decision
 * (the token allows only that one; the page still asks for a POST), and for a webhook the
 * `/act` URLs a receiver POSTs to decide. Undefined when nothing serves the pages.
 */
export function notifyLinks(links: DecisionLinks): LinksFor {
  return (requestId, channel): RequestLinks | undefined => {
    if (links.baseUrl() === undefined) return undefined;
    const result: RequestLinks = {
      page: links.decisionLinkFor(requestId, channel),
      approve: links.issue(requestId, channel, ['approve']).url,
      deny: links.issue(requestId, channel, ['deny']).url,
    };
    if (channel === 'webhook') {
      result.actions = {
        approve: links.actionLinkFor(requestId, channel, 'approve').url,
        deny: links.actionLinkFor(requestId, channel, 'deny').url,
      };
    }
    return result;
  };
}
