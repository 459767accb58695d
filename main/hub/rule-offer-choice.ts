import type { DecisionScope } from '../../shared/domain';
import type { HubDecisionTerms } from '../../shared/hub-protocol';
import type { RuleOffer } from '../../shared/hub-rule-offers';
import { HubRefusal } from './hub-refusal';
import type { HubRequest } from './store/requests-repo';

/**
 * The rule offer an approval names: the one chosen (which must be one the machine offered,
 * for an approval that remembers a rule), or for session and always the narrowest offered.
 * Undefined when it remembers no rule, or the machine offered none (an older machine: it
 * applies its own narrowest rule).
 */
export function chosenOffer(
  request: HubRequest,
  p: {
    machine: string;
    requestId: string;
    decision: 'approve' | 'deny';
    scope?: DecisionScope | undefined;
  },
  terms: HubDecisionTerms | undefined,
): RuleOffer | undefined {
  const remembers = (p.scope !== undefined && p.scope !== 'once') || terms?.envelope !== undefined;
  const chosen = terms?.ruleOffer;
  if (chosen === undefined)
    return p.decision === 'approve' && p.scope !== undefined && p.scope !== 'once'
      ? request.offers?.[0]
      : undefined;
  if (!remembers)
    throw new HubRefusal(
      400,
      'a rule is chosen only for a session or "always" approval, or one with an envelope',
    );
  const offer = request.offers?.find((o) => o.id === chosen);
  if (!offer)
    throw new HubRefusal(
      400,
      request.offers
        ? `rule ${chosen} is not one machine ${p.machine} offered for request ${p.requestId}; it offers: ${request.offers.map((o) => `${o.id} (${o.describe})`).join('; ')}`
        : `machine ${p.machine} offered no rules for request ${p.requestId}: it applies its own narrowest rule`,
    );
  return offer;
}
