import type { RequestRecord } from './domain';
import { RuleOffers, type RuleOffer } from './hub-rule-offers';
import { maskStrings } from './request-picture/mask-input';
import { maskSecrets } from './request-picture/mask-secrets';

/**
 * What a machine's copy of a request carries to its team hub: every string in it masked as
 * notifications and the kept tool input are (mask-secrets.ts), so a token written in a
 * command, a description or a rule offer never reaches the hub, its pages, its notification
 * channels, its database or its backups. The machine keeps the unmasked request: it alone
 * runs the call and saves the rule.
 *
 * The ids stay: the request's and its session's (the daemon's own), and each offer's (the
 * digest of the machine's real rule, main/hub-link/rule-offers.ts), so a decision from the
 * hub still names the very request and rule the machine holds. Offers that no longer fit
 * their schema once masked (a mask is longer than a short secret) are left out, with every
 * wider one after them, as an offer too large to travel is: the hub then offers a prefix of
 * the ladder, or none, and the machine applies its narrowest.
 */
export function hubCopy(
  request: RequestRecord,
  offers?: readonly RuleOffer[],
): { request: RequestRecord; offers?: RuleOffer[] } {
  const masked: RequestRecord = {
    ...maskStrings(request),
    requestId: request.requestId,
    sessionId: request.sessionId,
  };
  const shown = offers ? maskedOffers(offers) : undefined;
  return { request: masked, ...(shown ? { offers: shown } : {}) };
}

function maskedOffers(offers: readonly RuleOffer[]): RuleOffer[] | undefined {
  let out: RuleOffer[] = [];
  for (const offer of offers) {
    const next: RuleOffer[] = [
      ...out,
      {
        id: offer.id,
        draft: maskStrings(offer.draft),
        // Masked before it is cut, so no cut leaves part of a secret unrecognised; as a
        // command, since the wording quotes the rule's command.
        describe: maskSecrets(offer.describe, { shell: true }).slice(0, 4096),
      },
    ];
    if (!RuleOffers.safeParse(next).success) break;
    out = next;
  }
  return out.length > 0 ? out : undefined;
}
