import { z } from 'zod';
import { RuleDraft, RuleRecord } from '../domain';

/**
 * Admin methods for rule suggestions: when a person has approved the same narrow pattern
 * (the narrowest rule draft of the requests) repeatedly and never denied it, Gatehouse
 * suggests making it a rule. Computed on demand by the engine from the decisions themselves.
 */

/** A suggestion's key: 16 lowercase hex digits derived from its pattern. */
export const SuggestionKey = z
  .string()
  .regex(/^[0-9a-f]{16}$/, 'must be a suggestion key (16 hex digits, see suggestions.list)');

const Via = z.enum(['cli', 'dashboard', 'desktop', 'socket']).default('socket');

/** Which agent asked, and how often the person approved it. */
export const SuggestionAgent = z.object({ agent: z.string(), approvals: z.number().int() });

/** One "make it a rule" suggestion: the exact rule it would save and the history behind it. */
export const RuleSuggestion = z.object({
  key: SuggestionKey,
  /** The narrowest rule that covers every approved request of the pattern. */
  draft: RuleDraft,
  /** The draft in plain words (shared/rule-words.ts). */
  description: z.string(),
  /** Times a person approved the pattern; it was never denied. */
  approvals: z.number().int(),
  /** Every decision was a person's (`human`), through the CLI, dashboard or desktop app. */
  decidedBy: z.literal('human'),
  agents: z.array(SuggestionAgent),
  /**
   * The channels the person approved through (cli, dashboard, desktop, notification, socket;
   * `unrecorded` for decisions from before Gatehouse recorded it).
   */
  channels: z.array(z.object({ via: z.string(), approvals: z.number().int() })),
  /** The sessions the approved requests came from, newest first. */
  sessionIds: z.array(z.string()),
  firstApprovedAt: z.string(),
  lastApprovedAt: z.string(),
  /** The approved requests, newest first (at most 50). */
  requestIds: z.array(z.string()),
  /** The description of the newest approved request, as the person last saw it. */
  lastDescription: z.string(),
});
export type RuleSuggestion = z.infer<typeof RuleSuggestion>;

export const SuggestionsListParams = z
  .object({
    /** Only the suggestions that an approval in this session contributed to. */
    sessionId: z.string().min(1).optional(),
  })
  .default({});
export const SuggestionsListResult = z.object({
  suggestions: z.array(RuleSuggestion),
  /** The setting `rules.suggestAfterApprovals` in force. */
  threshold: z.number().int(),
});
export const SuggestionAcceptParams = z.object({
  key: SuggestionKey,
  /**
   * The rule to save instead of the suggested draft (a widening from `rules.preview`): it must
   * be for the same action and cover the approved requests.
   */
  draft: RuleDraft.optional(),
  via: Via,
});
export const SuggestionAcceptResult = z.object({ rule: RuleRecord, description: z.string() });
export const SuggestionSnoozeParams = z.object({ key: SuggestionKey, via: Via });
export const SuggestionSnoozeResult = z.object({ key: SuggestionKey, snoozedUntil: z.string() });

export const suggestionAdminMethods = {
  'suggestions.list': {
    params: SuggestionsListParams,
    result: SuggestionsListResult,
    mutates: false,
  },
  'suggestions.accept': {
    params: SuggestionAcceptParams,
    result: SuggestionAcceptResult,
    mutates: true,
  },
  'suggestions.snooze': {
    params: SuggestionSnoozeParams,
    result: SuggestionSnoozeResult,
    mutates: true,
  },
} as const;
