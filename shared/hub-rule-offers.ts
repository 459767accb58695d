import { z } from 'zod';
import { RuleDraft } from './domain';

/**
 * The rules a machine offers for a session, envelope or "always" approval made on the hub:
 * its own `rules.preview` of the request (the narrowest rule, then each widening), computed
 * by the daemon when it publishes the request. A hub decision names the one a person chose by
 * its id, never by its text, and the machine applies only a rule it offered: it computes the
 * preview again and looks the id up, so a hub (or an approver) cannot widen a rule beyond
 * what the machine showed.
 */

/** An offer's identity: a digest of its draft, made by the machine (hex). */
export const RuleOfferId = z.string().regex(/^[0-9a-f]{32}$/, 'a rule offer id (32 hex digits)');

export const RuleOffer = z.object({
  id: RuleOfferId,
  draft: RuleDraft,
  /** The rule in plain words, as the machine's own preview says it. */
  describe: z.string().max(4096),
});
export type RuleOffer = z.infer<typeof RuleOffer>;

/** At most this many offers travel with a request (the ladder has at most seven steps). */
export const MAX_RULE_OFFERS = 8;
/** At most this much (as JSON) of the offers travels: a larger offer is left out. */
export const MAX_RULE_OFFERS_CHARS = 32 * 1024;

/** The narrowest first, each one after it wider. */
export const RuleOffers = z
  .array(RuleOffer)
  .min(1)
  .max(MAX_RULE_OFFERS)
  .refine((o) => JSON.stringify(o).length <= MAX_RULE_OFFERS_CHARS, {
    message: `the rule offers must be at most ${MAX_RULE_OFFERS_CHARS} characters as JSON`,
  });
export type RuleOffers = z.infer<typeof RuleOffers>;
