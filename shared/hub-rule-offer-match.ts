import type { RuleDraft } from './domain';
import type { RuleOffer } from './hub-rule-offers';
import { normaliseDraft } from './policy/rule-match';

/**
 * A rule's canonical text, as the engine saves it (commands whitespace-normalised, keys in
 * order): two drafts of the same rule have the same key. The machine digests it for the id.
 */
export const draftKey = (d: RuleDraft): string => {
  const n = normaliseDraft(d);
  return JSON.stringify(
    Object.keys(n)
      .sort()
      .map((k) => [k, n[k as keyof RuleDraft]]),
  );
};

const sameDraft = (a: RuleDraft, b: RuleDraft): boolean => draftKey(a) === draftKey(b);

/** The offer whose rule is `draft`, if the machine offered it. */
export const offerOf = (offers: readonly RuleOffer[], draft: RuleDraft): RuleOffer | undefined =>
  offers.find((o) => sameDraft(o.draft, draft));
