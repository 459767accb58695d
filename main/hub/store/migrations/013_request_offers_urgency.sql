-- What a request's machine offers and how urgent it is, kept beside its record:
-- `rule_offers`: the rules the machine offers for a session, envelope or "always" approval on
--   the hub (its own preview; a decision names one by its id, shared/hub-rule-offers.ts).
-- `urgency_filed`, `urgency_later`, `urgency_later_at`: the urgency the queue ranks it by
--   (inferred as on the machine, shared/queue-order.ts `urgencyTimeline`), before and from
--   the time a blocked agent has waited long; rows from before hold NULL and rank by the
--   agent's own urgency.
ALTER TABLE requests ADD COLUMN rule_offers JSONB;
ALTER TABLE requests ADD COLUMN urgency_filed TEXT;
ALTER TABLE requests ADD COLUMN urgency_later TEXT;
ALTER TABLE requests ADD COLUMN urgency_later_at BIGINT;
