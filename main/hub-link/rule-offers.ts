import { createHash } from 'node:crypto';
import type { RuleDraft } from '../../shared/domain';
import { draftKey } from '../../shared/hub-rule-offer-match';
import {
  MAX_RULE_OFFERS,
  MAX_RULE_OFFERS_CHARS,
  type RuleOffer,
} from '../../shared/hub-rule-offers';

/** What `rules.preview` answers: the narrowest draft, each widening, and their words. */
export interface RulePreview {
  draft: RuleDraft;
  widenings: RuleDraft[];
  describe: string[];
}

/** The id of an offer: a digest of the rule's canonical text, so it names that rule only. */
export const ruleOfferId = (draft: RuleDraft): string =>
  createHash('sha256')
    .update(`gatehouse-rule-offer-v1\n${draftKey(draft)}`)
    .digest('hex')
    .slice(0, 32);

/**
 * The offers a machine publishes with a request, from its own preview: the narrowest rule,
 * then each widening, in order. Bounded: an offer that would take the offers over
 * {@link MAX_RULE_OFFERS_CHARS} (a rule listing hundreds of long paths) is left out, and so
 * is every wider one after it, so what is offered is always a prefix of the ladder. Undefined
 * when not even the narrowest fits: the hub then offers no choice and the machine applies
 * its narrowest rule.
 */
export function ruleOffersOf(preview: RulePreview): RuleOffer[] | undefined {
  const drafts = [preview.draft, ...preview.widenings].slice(0, MAX_RULE_OFFERS);
  const offers: RuleOffer[] = [];
  for (const [i, draft] of drafts.entries()) {
    const offer: RuleOffer = {
      id: ruleOfferId(draft),
      draft,
      describe: (preview.describe[i] ?? '').slice(0, 4096),
    };
    if (JSON.stringify([...offers, offer]).length > MAX_RULE_OFFERS_CHARS) break;
    offers.push(offer);
  }
  return offers.length > 0 ? offers : undefined;
}
