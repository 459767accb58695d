import { z } from 'zod';

/** How Gatehouse suggests turning repeated approvals into rules ("make it a rule"). */
export const RuleSettings = z
  .object({
    suggestAfterApprovals: z.number().int().min(1).max(10_000).default(5).meta({
      title: 'Suggest a rule after',
      description:
        'How many times you must approve the same narrow pattern (and never deny it) before Gatehouse suggests making it a rule.',
    }),
    suggestionSnoozeDays: z.number().positive().max(3650).default(7).meta({
      title: '"Not now" hides a suggestion for',
      unit: 'days',
      description: 'How long a suggestion you put off stays hidden.',
    }),
  })
  .meta({
    title: 'Rule suggestions',
    description: 'When Gatehouse offers to turn your repeated approvals into a rule.',
  });
