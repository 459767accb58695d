import { z } from 'zod';

/** How Gatehouse suggests turning repeated approvals into rules ("make it a rule"). */
export const RuleSettings = z.object({
  /**
   * How many times a person must approve the same narrow pattern (and never deny it) before
   * Gatehouse suggests making it a rule.
   */
  suggestAfterApprovals: z.number().int().min(1).max(10_000).default(5),
  /** How long "not now" hides a suggestion, in days. */
  suggestionSnoozeDays: z.number().positive().max(3650).default(7),
});
